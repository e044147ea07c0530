// The OpenIGTLink server (link/igtl_server.hpp) against a client written only against
// libOpenIGTLink (tests/peers/igtl_peer.cpp), both on the loopback interface: what the client
// receives is the image the engine made (float dB exactly; 8-bit as the display maps it, by an
// independent formula here), in physical units (spacing, centre and axes from the image grid);
// the newest volume on request; STATUS when imaging stops; and clients that hang or vanish cost
// the engine nothing.

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <cstring>

#include "acquire/frame_source.hpp"
#include "compute/backend.hpp"
#include "link/igtl_server.hpp"
#include "pipeline/engine.hpp"
#include "registry/source_factory.hpp"
#include "registry/ultrasound_engine.hpp"
#include "support/free_port.hpp"
#include "ultrasound/imaging_params.hpp"
#include "ultrasound/ultrasound_modality.hpp"
#include "ultrasound/ultrasound_source.hpp"

using namespace cineflow;

namespace {

struct Received {
  QString device;
  int dims[3] = {0, 0, 0};
  double spacing[3] = {0, 0, 0};
  double origin[3] = {0, 0, 0};
  double normals[9] = {};
  int type = 0;
  QByteArray raw;
};

Received readReceived(const QString& stem) {
  Received r;
  QFile text(stem + QStringLiteral(".txt"));
  if (!text.open(QIODevice::ReadOnly)) {
    return r;
  }
  for (const QByteArray& line : text.readAll().split('\n')) {
    const QList<QByteArray> words = line.split(' ');
    if (words.isEmpty()) {
      continue;
    }
    const auto number = [&words](int i) { return words.value(i + 1).toDouble(); };
    if (words[0] == "device") {
      r.device = QString::fromUtf8(words.value(1));
    } else if (words[0] == "dims") {
      for (int i = 0; i < 3; ++i)
        r.dims[i] = static_cast<int>(number(i));
    } else if (words[0] == "spacing") {
      for (int i = 0; i < 3; ++i)
        r.spacing[i] = number(i);
    } else if (words[0] == "origin") {
      for (int i = 0; i < 3; ++i)
        r.origin[i] = number(i);
    } else if (words[0] == "normals") {
      for (int i = 0; i < 9; ++i)
        r.normals[i] = number(i);
    } else if (words[0] == "type") {
      r.type = static_cast<int>(number(0));
    }
  }
  QFile raw(stem + QStringLiteral(".raw"));
  if (raw.open(QIODevice::ReadOnly)) {
    r.raw = raw.readAll();
  }
  return r;
}

// The simulator on a coarse grid (0.2 mm pixels), paced as a live scanner.
std::unique_ptr<pipeline::Engine> simulatorEngine(compute::Backend& backend, double rateHz) {
  auto source = acquire::openSource("sim");
  const auto& acq = ultrasound::requireUltrasound(*source).params();
  pipeline::EngineConfig config;
  config.pace = true;
  config.frameRateHz = rateHz;
  auto engine = std::make_unique<pipeline::Engine>(backend, config);
  ultrasound::ImagingParams imaging = ultrasound::ImagingParams::defaultsFor(acq);
  imaging.grid.dx = imaging.grid.dz = 0.2e-3;
  engine->setSource(std::move(source));
  ultrasound::setImaging(*engine, imaging);
  return engine;
}

QProcess* startPeer(QObject* owner, int port, const QString& folder, const QStringList& options) {
  auto* peer = new QProcess(owner);
  peer->setProcessChannelMode(QProcess::ForwardedChannels);
  peer->start(QStringLiteral(CINEFLOW_IGTL_PEER_PATH),
              QStringList{QStringLiteral("127.0.0.1"), QString::number(port), folder} + options);
  return peer;
}

bool near(double a, double b, double tolerance) {
  return std::abs(a - b) <= tolerance;
}

// The image grid's physical frame (link/igtl_image.hpp), checked from the geometry alone: mm,
// columns along +x (R), rows down the depth (-S), slices along the elevation (+A); the origin the
// centre. Float32 on the wire: 1e-5 relative.
void checkFrame(const Received& r, const process::ImageGeometry& g, int slices, double y0,
                double dy) {
  QCOMPARE(r.dims[0], g.nx);
  QCOMPARE(r.dims[1], g.nz);
  QCOMPARE(r.dims[2], slices);
  QVERIFY(near(r.spacing[0], g.dx * 1e3, 1e-5 * g.dx * 1e3));
  QVERIFY(near(r.spacing[1], g.dz * 1e3, 1e-5 * g.dz * 1e3));
  QVERIFY(near(r.spacing[2], slices > 1 ? dy * 1e3 : 1.0, 1e-5 * (slices > 1 ? dy * 1e3 : 1.0)));
  const double centre[3] = {(g.x0 + 0.5 * (g.nx - 1) * g.dx) * 1e3,
                            (y0 + 0.5 * (slices - 1) * dy) * 1e3,
                            -(g.z0 + 0.5 * (g.nz - 1) * g.dz) * 1e3};
  for (int i = 0; i < 3; ++i) {
    QVERIFY2(
        near(r.origin[i], centre[i], 1e-4 + 1e-5 * std::abs(centre[i])),
        qPrintable(
            QStringLiteral("origin[%1] %2, expected %3").arg(i).arg(r.origin[i]).arg(centre[i])));
  }
  // OpenIGTLink's normals: [row][column] of the direction matrix, columns i, j, k.
  const double expected[9] = {1, 0, 0, 0, 0, 1, 0, -1, 0};
  for (int i = 0; i < 9; ++i) {
    QVERIFY2(near(r.normals[i], expected[i], 1e-6),
             qPrintable(QStringLiteral("normals[%1] %2").arg(i).arg(r.normals[i])));
  }
}

// The kept cineloop frame whose intensity layer `matches`, and its geometry; false when none.
template <typename Match>
bool findShownFrame(const pipeline::Engine& engine, Match matches,
                    process::ImageGeometry& geometry) {
  std::vector<float> pixels;
  acquire::FrameHeader header;
  for (const acquire::FrameHeader& kept : engine.cineloop().headers()) {
    if (engine.cineloop().copyImage(kept.sequence, pixels, header, geometry) &&
        matches(std::span<const float>(pixels).first(geometry.pixels()))) {
      return true;
    }
  }
  return false;
}

std::uint8_t independentLevel(float dB, double gain, double range) {
  const double level = std::floor((dB - (gain - range)) * 255.0 / range);
  return static_cast<std::uint8_t>(std::min(255.0, std::max(0.0, level)));
}

}  // namespace

class TestIgtlServer : public QObject {
  Q_OBJECT

  std::unique_ptr<compute::Backend> cpu_ = compute::createBackend(compute::BackendRequest::Cpu);

 private slots:
  void initTestCase() {
    QVERIFY2(qEnvironmentVariableIsSet("CINEFLOW_CACHE_DIR"),
             "CTest sets CINEFLOW_CACHE_DIR so the simulator's frames are cached between runs");
  }

  void aClientReceivesTheImagesShownInPhysicalUnits() {
    auto engine = simulatorEngine(*cpu_, 20);
    link::IgtlServerOptions options;
    options.port = 0;
    options.bindAddress = "127.0.0.1";
    options.pixels = link::LinkPixels::FloatDb;
    link::IgtlServer server(*engine, options);
    QVERIFY(server.port() > 0);
    engine->start();
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    QProcess* peer = startPeer(this, server.port(), folder.path(),
                               {QStringLiteral("--images"), QStringLiteral("4"),
                                QStringLiteral("--volume"), QStringLiteral("--until-not-imaging")});
    QVERIFY(peer->waitForStarted(10'000));
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(folder.filePath(QStringLiteral("image_3.txt"))) &&
                                 QFile::exists(folder.filePath(QStringLiteral("volume.txt"))),
                             90'000);
    QVERIFY(!engine->hasFrameObserver());  // the server reads the cineloop, never the frame path
    // Each image is exactly one the engine kept (float dB), in the grid's physical frame.
    for (int n = 0; n < 4; ++n) {
      const Received image = readReceived(folder.filePath(QStringLiteral("image_%1").arg(n)));
      QCOMPARE(image.type, 10);  // float32
      QCOMPARE(image.device, QStringLiteral("Cineflow"));
      process::ImageGeometry geometry;
      const bool shown = findShownFrame(
          *engine,
          [&](std::span<const float> dB) {
            return static_cast<qsizetype>(dB.size_bytes()) == image.raw.size() &&
                   std::memcmp(dB.data(), image.raw.constData(), dB.size_bytes()) == 0;
          },
          geometry);
      QVERIFY2(shown,
               qPrintable(QStringLiteral("image %1 is none of the cineloop's frames").arg(n)));
      checkFrame(image, geometry, 1, 0, 0);
    }
    // The volume on request: every slice, the sweep's elevation step.
    const Received volume = readReceived(folder.filePath(QStringLiteral("volume")));
    QCOMPARE(volume.device, QStringLiteral("CineflowVolume"));
    {
      const process::VolumeLock latest = engine->lockLatestVolume();
      QVERIFY(latest);
      const process::VolumeInfo& info = latest.info();
      const double step =
          (info.elevationM.back() - info.elevationM.front()) / double(info.elevationM.size() - 1);
      checkFrame(volume, info.slice, info.shape.ny, info.elevationM.front(), step);
      QCOMPARE(volume.raw.size(), static_cast<qsizetype>(info.shape.voxels() * sizeof(float)));
    }
    engine->stop();  // STATUS 13 "not imaging": the peer has all it waits for
    QVERIFY(peer->waitForFinished(30'000));
    QCOMPARE(peer->exitCode(), 0);
    QFile status(folder.filePath(QStringLiteral("status.txt")));
    QVERIFY(status.open(QIODevice::ReadOnly));
    const QByteArray lines = status.readAll();
    QVERIFY2(lines.contains("1 imaging\n"), lines.constData());
    QVERIFY2(lines.endsWith("13 not imaging\n"), lines.constData());
    QCOMPARE(server.stats().volumesSent, std::uint64_t{1});
  }

  void display8IsTheDisplaysMapping() {
    auto engine = simulatorEngine(*cpu_, 20);
    link::IgtlServerOptions options;
    options.port = 0;
    options.bindAddress = "127.0.0.1";
    link::IgtlServer server(*engine, options);
    engine->start();
    // The gain a few dB under the first image's brightest pixel, as the display's automatic gain
    // sets it; then frames to come span black to white.
    QTRY_VERIFY_WITH_TIMEOUT(engine->cineloop().latest().has_value(), 60'000);
    std::vector<float> first;
    acquire::FrameHeader firstHeader;
    process::ImageGeometry firstGeometry;
    QVERIFY(engine->cineloop().copyImage(std::nullopt, first, firstHeader, firstGeometry));
    const double gain =
        *std::max_element(first.begin(),
                          first.begin() + static_cast<std::ptrdiff_t>(firstGeometry.pixels())) -
        6.5;
    const double range = 42.0;
    server.setMapping({gain, range});
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    QProcess* peer = startPeer(this, server.port(), folder.path(),
                               {QStringLiteral("--images"), QStringLiteral("3")});
    QVERIFY(peer->waitForFinished(90'000));
    QCOMPARE(peer->exitCode(), 0);
    for (int n = 0; n < 3; ++n) {
      const Received image = readReceived(folder.filePath(QStringLiteral("image_%1").arg(n)));
      QCOMPARE(image.type, 3);  // uint8
      process::ImageGeometry geometry;
      int black = 0, white = 0;
      const bool shown = findShownFrame(
          *engine,
          [&](std::span<const float> dB) {
            if (static_cast<qsizetype>(dB.size()) != image.raw.size()) {
              return false;
            }
            black = white = 0;
            for (std::size_t p = 0; p < dB.size(); ++p) {
              const auto got = static_cast<std::uint8_t>(image.raw[static_cast<qsizetype>(p)]);
              if (got != independentLevel(dB[p], gain, range)) {
                return false;
              }
              black += got == 0;
              white += got == 255;
            }
            return true;
          },
          geometry);
      QVERIFY2(shown,
               qPrintable(QStringLiteral("image %1 is no frame as the display maps it").arg(n)));
      // A real picture: neither all black nor all white.
      qInfo("image %d: %d black, %d white of %zu", n, black, white, geometry.pixels());
      QVERIFY(black < static_cast<int>(geometry.pixels()) &&
              white < static_cast<int>(geometry.pixels()));
      checkFrame(image, geometry, 1, 0, 0);
    }
    engine->stop();
  }

  // One client hangs (stops reading), one is killed mid-stream, one reads on: the engine keeps
  // imaging, the reading client gets every image it asks for, and the server drops the other two.
  void clientsThatHangOrVanishCostTheEngineNothing() {
    auto engine = simulatorEngine(*cpu_, 25);
    link::IgtlServerOptions options;
    options.port = 0;
    options.bindAddress = "127.0.0.1";
    options.pixels = link::LinkPixels::FloatDb;
    // Long enough for two newer images to come while the hung client's send waits (the second
    // is the skip counted), also where the engine images under a frame a second (the sanitizer
    // builds on a loaded machine).
    options.sendTimeoutMs = 15000;
    link::IgtlServer server(*engine, options);
    engine->start();
    QTemporaryDir hung, killed, reading;
    QProcess* hangs = startPeer(this, server.port(), hung.path(),
                                {QStringLiteral("--images"), QStringLiteral("1000"),
                                 QStringLiteral("--stall-after"), QStringLiteral("1")});
    QProcess* vanishes = startPeer(this, server.port(), killed.path(),
                                   {QStringLiteral("--images"), QStringLiteral("1000")});
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(killed.filePath(QStringLiteral("image_0.txt"))), 60'000);
    vanishes->kill();
    vanishes->waitForFinished(10'000);
    const std::uint64_t before = engine->processedFrames();
    QProcess* reads = startPeer(this, server.port(), reading.path(),
                                {QStringLiteral("--images"), QStringLiteral("30")});
    QVERIFY(reads->waitForFinished(120'000));
    QCOMPARE(reads->exitCode(), 0);
    QVERIFY(QFile::exists(reading.filePath(QStringLiteral("image_29.txt"))));
    // The hung client fills its socket, skips to the newest image, then is dropped.
    QTRY_VERIFY_WITH_TIMEOUT(server.stats().clientsDropped >= 1, 150'000);  // the hung one
    QTRY_VERIFY_WITH_TIMEOUT(server.stats().disconnected + server.stats().clientsDropped == 3,
                             30'000);
    const link::IgtlServerStats stats = server.stats();
    qInfo(
        "connections %llu, images sent %llu, skipped %llu, dropped clients %llu, engine %llu "
        "frames",
        static_cast<unsigned long long>(stats.connections),
        static_cast<unsigned long long>(stats.imagesSent),
        static_cast<unsigned long long>(stats.skipped),
        static_cast<unsigned long long>(stats.clientsDropped),
        static_cast<unsigned long long>(engine->processedFrames() - before));
    QVERIFY(stats.skipped > 0);
    QCOMPARE(stats.connections, std::uint64_t{3});
    QCOMPARE(engine->state(), pipeline::EngineState::Running);
    QVERIFY(engine->processedFrames() - before >= 30);  // it imaged on while they hung
    QVERIFY(!engine->hasFrameObserver());
    engine->stop();
    hangs->kill();
    hangs->waitForFinished(10'000);
  }

  // `cineflow --headless --igtl-port`: streaming alone is a run; the report counts the clients.
  void theCommandLineServesHeadless() {
    const int port = test::freeLoopbackPort();
    QVERIFY(port > 0);
    QProcess app;
    app.start(QStringLiteral(CINEFLOW_APP_PATH),
              {QStringLiteral("--headless"), QStringLiteral("--backend"), QStringLiteral("cpu"),
               QStringLiteral("--igtl-port"), QString::number(port), QStringLiteral("--igtl-bind"),
               QStringLiteral("127.0.0.1"), QStringLiteral("--frames"), QStringLiteral("400")});
    QVERIFY(app.waitForStarted(10'000));
    QByteArray out;
    QTRY_VERIFY_WITH_TIMEOUT((out += app.readAllStandardOutput()).contains("OpenIGTLink: serving"),
                             60'000);
    QVERIFY2(out.contains(QStringLiteral("127.0.0.1:%1 (8-bit display levels)").arg(port).toUtf8()),
             out.constData());
    QTemporaryDir folder;
    QProcess* peer =
        startPeer(this, port, folder.path(), {QStringLiteral("--images"), QStringLiteral("2")});
    QVERIFY(peer->waitForFinished(60'000));
    QCOMPARE(peer->exitCode(), 0);
    const Received image = readReceived(folder.filePath(QStringLiteral("image_1")));
    QCOMPARE(image.type, 3);
    // The first image's brightest pixel is white: a real picture spans black to white.
    const auto [lo, hi] = std::minmax_element(image.raw.begin(), image.raw.end(),
                                              [](char a, char b) { return uchar(a) < uchar(b); });
    QVERIFY(uchar(*hi) - uchar(*lo) > 128);
    app.terminate();  // SIGTERM: the run ends as a finished one, with its report
    QVERIFY(app.waitForFinished(60'000));
    out += app.readAllStandardOutput();
    QVERIFY2(out.contains("OpenIGTLink: 1 connections, 2 images") ||
                 out.contains("OpenIGTLink: 1 connections, 3 images"),
             out.constData());
    for (const QStringList& bad :
         {QStringList{QStringLiteral("--headless"), QStringLiteral("--igtl-port"),
                      QStringLiteral("0")},
          QStringList{QStringLiteral("--igtl-port"), QStringLiteral("18944"),
                      QStringLiteral("--igtl-pixels"), QStringLiteral("rgb")},
          QStringList{QStringLiteral("--igtl-bind"), QStringLiteral("127.0.0.1")}}) {
      QProcess refused;
      refused.start(QStringLiteral(CINEFLOW_APP_PATH), bad);
      QVERIFY(refused.waitForFinished(30'000));
      QVERIFY2(refused.exitCode() == 2, qPrintable(bad.join(QLatin1Char(' '))));
      QVERIFY(refused.readAllStandardError().contains("igtl"));
    }
  }

  void aBusyPortIsRefusedByName() {
    auto engine = simulatorEngine(*cpu_, 20);
    link::IgtlServerOptions options;
    options.port = 0;
    options.bindAddress = "127.0.0.1";
    link::IgtlServer first(*engine, options);
    options.port = first.port();
    try {
      link::IgtlServer second(*engine, options);
      QFAIL("a second server on the same port started");
    } catch (const std::runtime_error& error) {
      QVERIFY2(
          QString::fromUtf8(error.what()).contains(QStringLiteral("another server has this port")),
          error.what());
    }
    options.bindAddress = "not-an-address";
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, link::IgtlServer(*engine, options));
  }
};

QTEST_GUILESS_MAIN(TestIgtlServer)
#include "test_igtl_server.moc"

// The OpenIGTLink client source (received/igtl_client_source.hpp) against an image server written
// only against libOpenIGTLink's messages (tests/peers/igtl_image_server.cpp), and against
// Cineflow's own server (link/igtl_server.hpp), all on the loopback interface: the engine shows
// the pixels as sent (the levels mapped by an independent formula here) in the physical frame the
// message states (spacing, and the first pixel's place from the centre origin and the normals);
// a server that goes away is waited for and resumed without the run failing; an image that
// changes its size ends the run saying so; other devices are skipped; bad endpoints and images it
// cannot show are refused by name; a recording of received images replays them byte for byte.

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <cstring>

#include "acquire/frame_source.hpp"
#include "compute/backend.hpp"
#include "link/igtl_image.hpp"
#include "link/igtl_server.hpp"
#include "pipeline/engine.hpp"
#include "received/igtl_client_source.hpp"
#include "received/igtl_wire.hpp"
#include "received/received_modality.hpp"
#include "registry/source_factory.hpp"
#include "registry/ultrasound_engine.hpp"
#include "store/raw_recorder.hpp"
#include "support/free_port.hpp"
#include "support/plain_hdf5.hpp"
#include "support/recording_fixtures.hpp"
#include "support/run_app.hpp"
#include "ultrasound/imaging_params.hpp"
#include "ultrasound/ultrasound_source.hpp"

using namespace cineflow;

namespace {

constexpr int kCols = 96, kRows = 64;
constexpr double kDxMm = 0.3, kDzMm = 0.2;
constexpr double kOrigin[3] = {1.5, 0.0, -10.0};  // the image's centre, mm (RAS)

// Starts the image server peer in `folder` and waits for the port it listens on.
int startServer(QObject* owner, const QString& folder, const QStringList& options) {
  auto* peer = new QProcess(owner);
  peer->setProcessChannelMode(QProcess::ForwardedChannels);
  peer->start(QStringLiteral(CINEFLOW_IGTL_IMAGE_SERVER_PATH), QStringList{folder} + options);
  if (!peer->waitForStarted(10'000)) {
    return 0;
  }
  QFile port(folder + QStringLiteral("/port.txt"));
  for (int i = 0; i < 200 && !port.exists(); ++i) {
    QTest::qWait(50);
  }
  return port.open(QIODevice::ReadOnly) ? port.readAll().trimmed().toInt() : 0;
}

QByteArray sent(const QString& folder, int n) {
  QFile raw(folder + QStringLiteral("/sent_%1.raw").arg(n));
  return raw.open(QIODevice::ReadOnly) ? raw.readAll() : QByteArray();
}

// The dB image the received modality's defaults make of the scalars the peer sent: the type's
// full range onto 60 dB below 0 dB (uint8: 0 -> -60, 255 -> 0); float32 as dB; RGB as its luma.
std::vector<double> expectedDb(const QByteArray& scalars, const QString& type) {
  std::vector<double> dB;
  const auto* bytes = reinterpret_cast<const unsigned char*>(scalars.constData());
  const auto levels = [&](double v, double black, double white) {
    dB.push_back(60.0 * (v - white) / (white - black));
  };
  if (type == QLatin1String("float32")) {
    for (qsizetype i = 0; i + 4 <= scalars.size(); i += 4) {
      float v;
      std::memcpy(&v, bytes + i, 4);
      dB.push_back(v);
    }
  } else if (type == QLatin1String("int16")) {
    for (qsizetype i = 0; i + 2 <= scalars.size(); i += 2) {
      std::int16_t v;
      std::memcpy(&v, bytes + i, 2);
      levels(v, -32768, 32767);
    }
  } else if (type == QLatin1String("rgb")) {
    for (qsizetype i = 0; i + 3 <= scalars.size(); i += 3) {
      levels(std::round(0.299 * bytes[i] + 0.587 * bytes[i + 1] + 0.114 * bytes[i + 2]), 0, 255);
    }
  } else {
    for (qsizetype i = 0; i < scalars.size(); ++i) {
      levels(bytes[i], 0, 255);
    }
  }
  return dB;
}

// Whether the engine's newest image is `expected` within float32 rounding of the level map.
bool showing(const pipeline::Engine& engine, const std::vector<double>& expected,
             process::ImageGeometry& geometry) {
  std::vector<float> pixels;
  acquire::FrameHeader header;
  if (!engine.copyLatest(~std::uint64_t{0}, pixels, header, geometry) ||
      geometry.pixels() != expected.size()) {
    return false;
  }
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (std::abs(pixels[i] - expected[i]) > 1e-4 * (1 + std::abs(expected[i]))) {
      return false;
    }
  }
  return true;
}

std::uint64_t counter(const acquire::FrameSource& source, const std::string& name) {
  for (const auto& [key, value] : source.transportCounters()) {
    if (key == name) {
      return value;
    }
  }
  return ~std::uint64_t{0};
}

// Records `frames` frames of `source` to `path` (cineflow.received/1); the recorder's error, if
// any.
std::string record(acquire::FrameSource& source, const std::string& path, std::uint64_t frames) {
  store::RawRecorder recorder(path, test::layoutOf(source), store::RecordCodec{},
                              store::RecordPolicy::Block, 4);
  source.startAcquisition();
  std::vector<std::byte> frame(source.frameBytes());
  for (std::uint64_t i = 0; i < frames; ++i) {
    acquire::SliceInfo slice;
    source.readFrame(i, frame, slice);
    acquire::FrameHeader header;
    header.sequence = i;
    if (!recorder.submit(header, frame)) {
      return "frame " + std::to_string(i) + " was not taken";
    }
  }
  source.stopAcquisition();
  return recorder.stop().error;
}

std::unique_ptr<pipeline::Engine> receivingEngine(compute::Backend& backend, int port,
                                                  const std::string& device = {}) {
  auto engine = std::make_unique<pipeline::Engine>(backend, pipeline::EngineConfig{});
  engine->setSource(acquire::openSource("igtl://127.0.0.1:" + std::to_string(port) +
                                        (device.empty() ? "" : "#" + device)));
  return engine;
}

}  // namespace

class TestIgtlClient : public QObject {
  Q_OBJECT

  std::unique_ptr<compute::Backend> cpu_ = compute::createBackend(compute::BackendRequest::Cpu);

 private slots:
  // Every server peer a case started is gone before the next case.
  void cleanup() {
    for (QProcess* peer : findChildren<QProcess*>()) {
      peer->kill();
      peer->waitForFinished(5'000);
      delete peer;
    }
  }

  void imagesArriveAsSentInPhysicalUnits_data() {
    QTest::addColumn<QString>("type");
    QTest::addColumn<bool>("bigEndian");
    QTest::newRow("uint8") << QStringLiteral("uint8") << false;
    QTest::newRow("int16, big-endian") << QStringLiteral("int16") << true;
    QTest::newRow("float32 dB") << QStringLiteral("float32") << false;
    QTest::newRow("RGB video") << QStringLiteral("rgb") << false;
  }
  void imagesArriveAsSentInPhysicalUnits() {
    QFETCH(QString, type);
    QFETCH(bool, bigEndian);
    QTemporaryDir folder;
    QStringList options{QStringLiteral("--type"),   type,
                        QStringLiteral("--images"), QStringLiteral("20"),
                        QStringLiteral("--rate"),   QStringLiteral("40"),
                        QStringLiteral("--seed"),   QString::number(type.size())};
    if (bigEndian) {
      options << QStringLiteral("--big-endian");
    }
    const int port = startServer(this, folder.path(), options);
    QVERIFY(port > 0);
    auto engine = receivingEngine(*cpu_, port);
    const auto& format = received::requireReceived(*engine->source()).format();
    QCOMPARE(format.cols, kCols);
    QCOMPARE(format.rows, kRows);
    QCOMPARE(QString::fromStdString(format.device), QStringLiteral("Image_Reference"));
    // Columns along +R, rows along -S from a centre origin: the first pixel is half the image
    // before the centre on each axis; depth is -S. Float32 on the wire: 1e-6 mm.
    const double x0Mm = kOrigin[0] - 0.5 * (kCols - 1) * kDxMm;
    const double z0Mm = -kOrigin[2] - 0.5 * (kRows - 1) * kDzMm;
    QVERIFY(std::abs(format.dxM - kDxMm * 1e-3) < 1e-9);
    QVERIFY(std::abs(format.dzM - kDzMm * 1e-3) < 1e-9);
    QVERIFY2(std::abs(format.x0M - x0Mm * 1e-3) < 1e-8, qPrintable(QString::number(format.x0M)));
    QVERIFY2(std::abs(format.z0M - z0Mm * 1e-3) < 1e-8, qPrintable(QString::number(format.z0M)));
    engine->start();
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(folder.filePath(QStringLiteral("sent_19.raw"))), 30'000);
    const std::vector<double> last = expectedDb(sent(folder.path(), 19), type);
    QCOMPARE(last.size(), std::size_t{kCols * kRows});
    process::ImageGeometry geometry;
    QTRY_VERIFY_WITH_TIMEOUT(showing(*engine, last, geometry), 30'000);
    QCOMPARE(geometry.nx, kCols);
    QCOMPARE(geometry.nz, kRows);
    QCOMPARE(geometry.x0, format.x0M);
    QCOMPARE(counter(*engine->source(), "images"), std::uint64_t{20});
    QCOMPARE(counter(*engine->source(), "damaged messages"), std::uint64_t{0});
    engine->stop();
    QCOMPARE(engine->state(), pipeline::EngineState::Stopped);
  }

  void aServerThatGoesAwayIsWaitedForAndResumed() {
    QTemporaryDir folder;
    const int port =
        startServer(this, folder.path(),
                    {QStringLiteral("--images"), QStringLiteral("10"), QStringLiteral("--clients"),
                     QStringLiteral("2"), QStringLiteral("--pause-ms"), QStringLiteral("2500"),
                     QStringLiteral("--rate"), QStringLiteral("40")});
    QVERIFY(port > 0);
    auto engine = receivingEngine(*cpu_, port);
    engine->start();
    // The first connection ends after 10 images; the source says so and tries again.
    QTRY_VERIFY_WITH_TIMEOUT(
        QString::fromStdString(engine->source()->liveStatus()).contains("trying again"), 20'000);
    // How long it has been without, from the moment it was lost (not from the last try).
    QTRY_VERIFY_WITH_TIMEOUT(QString::fromStdString(engine->source()->liveStatus())
                                 .contains(QRegularExpression(" for [1-9][0-9]* s ")),
                             10'000);
    QCOMPARE(engine->state(), pipeline::EngineState::Running);
    // The server listens again: the run resumes with its images.
    QTRY_VERIFY_WITH_TIMEOUT(counter(*engine->source(), "images") == 20, 30'000);
    process::ImageGeometry geometry;
    QTRY_VERIFY_WITH_TIMEOUT(
        showing(*engine, expectedDb(sent(folder.path(), 19), QStringLiteral("uint8")), geometry),
        30'000);
    QCOMPARE(counter(*engine->source(), "reconnections"), std::uint64_t{1});
    QCOMPARE(engine->state(), pipeline::EngineState::Running);
    engine->stop();
  }

  void aChangedImageEndsTheRunSayingSo() {
    QTemporaryDir folder;
    const int port = startServer(this, folder.path(),
                                 {QStringLiteral("--images"), QStringLiteral("12"),
                                  QStringLiteral("--change-after"), QStringLiteral("6")});
    QVERIFY(port > 0);
    auto engine = receivingEngine(*cpu_, port);
    engine->start();
    QCOMPARE(engine->waitUntilFinished(std::chrono::seconds(30)), pipeline::EngineState::Failed);
    const QString error = QString::fromStdString(engine->stats().error);
    QVERIFY2(error.contains(QStringLiteral("changed from 96 x 64 uint8")) &&
                 error.contains(QStringLiteral("to 97 x 64 uint8")),
             qPrintable(error));
    // Said apart, so that whoever opened the source can open it again to follow the change.
    const QString change = QString::fromStdString(engine->stats().sourceChange);
    QVERIFY2(change.startsWith(QStringLiteral("the server's image changed from 96 x 64 uint8")) &&
                 change.contains(QStringLiteral("to 97 x 64 uint8")) && error.contains(change),
             qPrintable(change));
  }

  void otherDevicesAreSkipped() {
    QTemporaryDir folder;
    const int port = startServer(
        this, folder.path(),
        {QStringLiteral("--images"), QStringLiteral("8"), QStringLiteral("--other-device"),
         QStringLiteral("--device"), QStringLiteral("Probe")});
    QVERIFY(port > 0);
    auto engine = receivingEngine(*cpu_, port, "Probe");
    QCOMPARE(received::requireReceived(*engine->source()).format().cols, kCols);
    engine->start();
    process::ImageGeometry geometry;
    QTRY_VERIFY_WITH_TIMEOUT(
        showing(*engine, expectedDb(sent(folder.path(), 7), QStringLiteral("uint8")), geometry),
        30'000);
    QCOMPARE(counter(*engine->source(), "images"), std::uint64_t{8});
    engine->stop();
  }

  void whatCannotBeShownIsRefusedByName() {
    const auto refusal = [](const std::string& spec) {
      try {
        acquire::openSource(spec);
      } catch (const acquire::SourceError& e) {
        return QString::fromUtf8(e.what());
      }
      return QString();
    };
    QVERIFY(refusal("igtl://").contains(QStringLiteral("host is missing")));
    QVERIFY(refusal("igtl://127.0.0.1:99999").contains(QStringLiteral("from 1 to 65535")));
    const int closed = test::freeLoopbackPort();
    QVERIFY(closed > 0);
    const QString nothing = refusal("igtl://127.0.0.1:" + std::to_string(closed));
    QVERIFY2(nothing.contains(QStringLiteral("cannot connect")) &&
                 nothing.contains(QStringLiteral("is the server running")),
             qPrintable(nothing));
    QTemporaryDir folder;
    const int port = startServer(this, folder.path(),
                                 {QStringLiteral("--type"), QStringLiteral("float64"),
                                  QStringLiteral("--images"), QStringLiteral("3")});
    QVERIFY(port > 0);
    const QString float64 = refusal("igtl://127.0.0.1:" + std::to_string(port));
    QVERIFY2(float64.contains(QStringLiteral("scalar type 11")), qPrintable(float64));
  }

  // Protocol version 2 (OpenIGTLink 3's servers): the same IMAGE content after an extended
  // header, with metadata after it, reads as the version-1 message it carries. Debian's library
  // writes version 1 only, so the version-2 body is built here around the content it packed,
  // by the specification's layout (big-endian sizes: extended header 12 bytes, metadata header,
  // metadata).
  void version2MessagesReadAsTheContentTheyCarry() {
    process::ImageGeometry geometry;
    geometry.nx = 24;
    geometry.nz = 16;
    geometry.dx = 2e-4;
    geometry.dz = 1e-4;
    geometry.x0 = -2.3e-3;
    geometry.z0 = 5e-3;
    std::vector<float> dB(geometry.pixels());
    for (std::size_t i = 0; i < dB.size(); ++i) {
      dB[i] = -70.0f + 0.25f * static_cast<float>(i % 280);
    }
    const std::vector<std::uint8_t> message =
        link::packImage("Image_Reference", {geometry, 1, 0, 0, dB}, link::LinkPixels::FloatDb, {});
    const auto* bytes = reinterpret_cast<const std::byte*>(message.data());
    const received::IgtlHeader v1 = received::parseIgtlHeader(
        std::span<const std::byte, received::kIgtlHeaderBytes>(bytes, received::kIgtlHeaderBytes));
    const std::span<const std::byte> content(bytes + received::kIgtlHeaderBytes,
                                             message.size() - received::kIgtlHeaderBytes);
    QCOMPARE(v1.version, 1u);
    QCOMPARE(v1.bodyBytes, std::uint64_t{content.size()});
    QVERIFY(received::crcMatches(v1, content));
    const received::IgtlImage one = received::parseIgtlImage(v1, content);

    const std::size_t metaHeader = 10, metaData = 7;
    std::vector<std::byte> body(12, std::byte{0});
    body[1] = std::byte{12};                                      // extended header size
    body[3] = std::byte{static_cast<unsigned char>(metaHeader)};  // metadata header size
    body[7] = std::byte{static_cast<unsigned char>(metaData)};    // metadata size
    body.insert(body.end(), content.begin(), content.end());
    body.insert(body.end(), metaHeader + metaData, std::byte{0x5a});
    received::IgtlHeader v2 = v1;
    v2.version = 2;
    v2.bodyBytes = body.size();
    const received::IgtlImage two = received::parseIgtlImage(v2, body);
    QVERIFY(two.format.samePicture(one.format));
    QCOMPARE(two.format.pixel, received::PixelType::Float32);
    std::vector<std::byte> a(one.format.frameBytes()), b(two.format.frameBytes());
    received::storeIgtlPixels(one, a);
    received::storeIgtlPixels(two, b);
    QVERIFY(a == b);
    QCOMPARE(std::memcmp(b.data(), dB.data(), b.size()), 0);
    // A version-2 body whose sizes do not fit is refused, not read past.
    body[4] = std::byte{0xff};
    QVERIFY_THROWS_EXCEPTION(received::UnshowableImage, received::parseIgtlImage(v2, body));
  }

  void aRecordingReplaysTheImagesAsReceived() {
    QTemporaryDir folder;
    const int port = startServer(this, folder.path(),
                                 {QStringLiteral("--images"), QStringLiteral("6"),
                                  QStringLiteral("--rate"), QStringLiteral("20")});
    QVERIFY(port > 0);
    auto source = acquire::openSource("igtl://127.0.0.1:" + std::to_string(port));
    const std::string path = folder.filePath(QStringLiteral("received.h5")).toStdString();
    const std::string error = record(*source, path, 3);
    QVERIFY2(error.empty(), error.c_str());
    auto replay = acquire::openSource(path);
    QCOMPARE(replay->modality().name(), "received");
    QCOMPARE(replay->frameCount(), std::uint64_t{3});
    const auto& recorded = received::requireReceived(*replay).format();
    const auto& live = received::requireReceived(*source).format();
    QVERIFY(recorded.samePicture(live));
    QCOMPARE(recorded.device, live.device);
    // Each recorded frame is one the server sent, byte for byte, in the order sent.
    int previous = -1;
    std::vector<std::byte> frame(replay->frameBytes());
    for (std::uint64_t i = 0; i < 3; ++i) {
      acquire::SliceInfo slice;
      replay->readFrame(i, frame, slice);
      int match = -1;
      for (int n = 0; n < 6 && match < 0; ++n) {
        const QByteArray bytes = sent(folder.path(), n);
        if (bytes.size() == static_cast<qsizetype>(frame.size()) &&
            std::memcmp(bytes.constData(), frame.data(), frame.size()) == 0) {
          match = n;
        }
      }
      QVERIFY2(match > previous,
               qPrintable(QStringLiteral("frame %1 matches %2").arg(i).arg(match)));
      previous = match;
    }
  }

  // Headless, --received-levels maps a recording's values as the manual's formula says
  // (computed here from the file as an outside reader sees it); bad levels and other modalities'
  // options are refused with exit 2 and no output.
  void theCommandLineShowsARecordingThroughTheLevelsItIsGiven() {
    QTemporaryDir folder;
    const int port = startServer(this, folder.path(),
                                 {QStringLiteral("--images"), QStringLiteral("4"),
                                  QStringLiteral("--rate"), QStringLiteral("20")});
    QVERIFY(port > 0);
    const QString recording = folder.filePath(QStringLiteral("received.h5"));
    {
      auto source = acquire::openSource("igtl://127.0.0.1:" + std::to_string(port));
      const std::string error = record(*source, recording.toStdString(), 2);
      QVERIFY2(error.empty(), error.c_str());
    }
    std::vector<std::uint8_t> values;
    {
      const test::PlainFile file(recording.toStdString());
      values = test::readAll<std::uint8_t>(file.id, "images", H5T_NATIVE_UINT8);
    }
    QCOMPARE(values.size(), std::size_t{2} * kCols * kRows);
    const QString out = folder.filePath(QStringLiteral("shown.h5"));
    const struct {
      const char* levels;
      double black, white;  // white == black: the values are dB
    } cases[] = {{"10,200.5", 10, 200.5}, {"255,0", 255, 0}, {"full", 0, 255}, {"db", 0, 0}};
    for (const auto& c : cases) {
      QFile::remove(out);
      const test::AppRun run = test::runApp({"--headless", "--backend", "cpu", "--input", recording,
                                             "--received-levels", c.levels, "--output", out});
      QVERIFY2(run.exitCode == 0, qPrintable(QString(c.levels) + ": " + run.err));
      const test::PlainFile file(out.toStdString());
      const std::vector<float> shown = test::readAll<float>(file.id, "bmode_db", H5T_NATIVE_FLOAT);
      QCOMPARE(shown.size(), values.size());
      for (std::size_t i = 0; i < values.size(); ++i) {
        const double v = values[i];
        const double expected = c.white == c.black ? v : 60.0 * (v - c.white) / (c.white - c.black);
        // float32 rounding of values of at most 60 * 255 / 190.5 dB
        QVERIFY2(std::abs(shown[i] - expected) <= 1e-4 * (1 + std::abs(expected)),
                 qPrintable(QStringLiteral("%1: pixel %2 shows %3, expected %4")
                                .arg(c.levels)
                                .arg(i)
                                .arg(shown[i])
                                .arg(expected)));
      }
    }
    const struct {
      QStringList options;
      const char* reason;
    } refused[] = {{{"--received-levels", "7,7"}, "must be finite and differ"},
                   {{"--received-levels", "7,x"}, "'x' is not a finite number"},
                   {{"--received-levels", "bright"}, "expected full, db or BLACK,WHITE"},
                   {{"--oct-window", "rect"}, "apply to OCT"},
                   {{"--fnumber", "2"}, "apply to ultrasound"}};
    for (const auto& [options, reason] : refused) {
      QFile::remove(out);
      const test::AppRun run = test::runApp(
          QStringList{"--headless", "--backend", "cpu", "--input", recording, "--output", out} +
          options);
      QVERIFY2(run.exitCode == 2 && run.err.contains(QLatin1String(reason)),
               qPrintable(options.join(' ') + ": " + run.err));
      QVERIFY(!QFile::exists(out));
    }
    const test::AppRun onSimulator =
        test::runApp({"--headless", "--input", "sim", "--received-levels", "db", "--output", out});
    QVERIFY2(onSimulator.exitCode == 2 &&
                 onSimulator.err.contains("--received-levels applies to received images"),
             qPrintable(onSimulator.err));
  }

  void cineflowsOwnServerIsReceivedAsItShows() {
    auto sourceOfA = acquire::openSource("sim");
    const auto& acq = ultrasound::requireUltrasound(*sourceOfA).params();
    pipeline::EngineConfig config;
    config.pace = true;
    config.frameRateHz = 10;
    pipeline::Engine a(*cpu_, config);
    ultrasound::ImagingParams imaging = ultrasound::ImagingParams::defaultsFor(acq);
    imaging.grid.dx = imaging.grid.dz = 0.2e-3;
    a.setSource(std::move(sourceOfA));
    ultrasound::setImaging(a, imaging);
    link::IgtlServerOptions options;
    options.port = 0;
    options.bindAddress = "127.0.0.1";
    options.pixels = link::LinkPixels::FloatDb;
    link::IgtlServer server(a, options);
    a.start();
    auto b = receivingEngine(*cpu_, server.port());
    const auto& format = received::requireReceived(*b->source()).format();
    QCOMPARE(format.pixel, received::PixelType::Float32);
    b->start();
    QTRY_VERIFY_WITH_TIMEOUT(b->processedFrames() >= 3, 60'000);
    std::vector<float> shownByB;
    acquire::FrameHeader header;
    process::ImageGeometry geometryB;
    QVERIFY(b->copyLatest(~std::uint64_t{0}, shownByB, header, geometryB));
    // B shows one of A's images exactly (float dB as dB), on A's grid (float32 on the wire).
    bool found = false;
    process::ImageGeometry geometryA;
    std::vector<float> pixels;
    for (const acquire::FrameHeader& kept : a.cineloop().headers()) {
      if (a.cineloop().copyImage(kept.sequence, pixels, header, geometryA) &&
          geometryA.pixels() == geometryB.pixels() &&
          std::memcmp(pixels.data(), shownByB.data(), geometryB.pixels() * sizeof(float)) == 0) {
        found = true;
        break;
      }
    }
    QVERIFY2(found, "B's image is none of A's cineloop frames");
    QCOMPARE(geometryB.nx, geometryA.nx);
    QCOMPARE(geometryB.nz, geometryA.nz);
    for (const auto& [got, want] :
         {std::pair{geometryB.dx, geometryA.dx}, std::pair{geometryB.dz, geometryA.dz},
          std::pair{geometryB.x0, geometryA.x0}, std::pair{geometryB.z0, geometryA.z0}}) {
      QVERIFY2(std::abs(got - want) < 1e-8,
               qPrintable(QStringLiteral("%1 against %2").arg(got).arg(want)));
    }
    b->stop();
    a.stop();
  }
};

QTEST_GUILESS_MAIN(TestIgtlClient)
#include "test_igtl_client.moc"

// GenICam cameras (acquire/genicam_camera.hpp, oct/genicam_source.hpp) against a real GigE Vision
// device: Aravis' own simulator on the loopback interface (support/fake_gige_camera.hpp), started
// and stopped here. Frames are checked bit for bit against the pattern it sends; the engine's
// counts under Block and Drop against the camera's own frame ids; a camera that disappears
// mid-run, and one that comes back.
#include <QtTest>

#include <chrono>
#include <cstring>
#include <thread>

#include "acquire/genicam_camera.hpp"
#include "compute/backend.hpp"
#include "oct/genicam_source.hpp"
#include "oct/oct_file_source.hpp"
#include "pipeline/engine.hpp"
#include "registry/source_factory.hpp"
#include "support/fake_gige_camera.hpp"
#include "support/pipeline_checks.hpp"
#include "support/run_app.hpp"

using namespace cineflow;
using namespace std::chrono_literals;

namespace {

constexpr int kSamples = 256;  // Width: spectrometer pixels
constexpr int kAscans = 64;    // Height: A-scans per B-scan

// A description for the simulator at scale 1 (exposure 10000 us, GainRaw 0: the pattern exact).
std::string description(const std::string& pixelFormat, double frameRateHz, int buffers = 32,
                        const std::string& extraCamera = {}) {
  return R"({"camera": {"pixel_format": ")" + pixelFormat +
         R"(", "exposure_us": 10000, "frame_rate_hz": )" + std::to_string(frameRateHz) +
         R"(, "buffers": )" + std::to_string(buffers) + R"(, "features": {"GainRaw": 0})" +
         extraCamera + R"(},
  "samples": )" +
         std::to_string(kSamples) + R"(, "ascans": )" + std::to_string(kAscans) + R"(,
  "wavelength_first_m": 790e-9, "wavelength_last_m": 890e-9, "centre_wavelength_m": 840e-9,
  "bscans_per_volume": 8, "bidirectional": false, "flyback_ascans": 0,
  "lateral_step_m": 10e-6, "elevation_step_m": 20e-6})";
}

// Frames the camera sent from the run's first buffer to its latest, by their ids: GigE Vision 1's
// ids are 16-bit and wrap from 65535 to 1 (the simulator's counter runs on across runs).
std::uint64_t idSpan(const oct::GenicamSource& source) {
  const std::uint64_t first = source.firstFrameId();
  const std::uint64_t last = source.lastFrameId();
  return last >= first ? last - first + 1 : (0xffff - first) + last + 1;
}

// The first (x, y) where `frame` differs from the simulator's frame `frameId`, as text; "" when
// it is that frame bit for bit.
QString patternMismatch(const std::uint16_t* frame, std::uint64_t frameId, bool mono8) {
  for (int y = 0; y < kAscans; ++y) {
    for (int x = 0; x < kSamples; ++x) {
      const std::uint16_t expected =
          mono8 ? test::fakeMono8(x, y, frameId) : test::fakeMono16(x, y, frameId);
      const std::uint16_t got = frame[static_cast<std::size_t>(y) * kSamples + x];
      if (got != expected) {
        return QStringLiteral("frame id %1, pixel (%2, %3): %4, expected %5")
            .arg(frameId)
            .arg(x)
            .arg(y)
            .arg(got)
            .arg(expected);
      }
    }
  }
  return {};
}

// An engine on the camera, started with its observer holding it at its first frame (release()
// lets it go): the camera sends on while the engine takes nothing.
struct HeldRun {
  test::Collector collector;  // outlives the engine, which calls it
  pipeline::Engine engine;
  const oct::GenicamSource* source;
  HeldRun(compute::Backend& backend, const pipeline::EngineConfig& config,
          std::unique_ptr<oct::GenicamSource> camera)
      : engine(backend, config), source(camera.get()) {
    engine.setSource(std::move(camera));
    engine.setFrameObserver(collector.observer());
    collector.stallAt(0);
    engine.start();
  }
};

}  // namespace

class TestGenicamSource : public QObject {
  Q_OBJECT

 private:
  std::unique_ptr<test::FakeGigeCamera> camera_;
  std::unique_ptr<compute::Backend> cpu_ = compute::createBackend(compute::BackendRequest::Cpu);

  std::string id() const { return camera_->id().toStdString(); }
  std::unique_ptr<oct::GenicamSource> open(const std::string& json) {
    return std::make_unique<oct::GenicamSource>(
        id(), oct::parseGenicamDescription(json, "test description", "."));
  }

  // Reads `count` frames straight from the source and checks each against the pattern of the
  // frame id the camera gave it.
  void checkFramesBitForBit(const std::string& pixelFormat) {
    auto source = open(description(pixelFormat, 100));
    QCOMPARE(source->acquisition().samples, kSamples);
    QCOMPARE(source->acquisition().ascans, kAscans);
    QCOMPARE(source->pixelFormat(), pixelFormat);
    std::vector<std::byte> frame(source->frameBytes());
    source->startAcquisition();
    std::uint64_t previous = 0;
    for (int i = 0; i < 24; ++i) {
      acquire::SliceInfo slice;
      source->readFrame(static_cast<std::uint64_t>(i), frame, slice);
      const std::uint64_t frameId = source->lastFrameId();
      QVERIFY2(frameId != previous, "a new frame id each time (they wrap from 65535 to 1)");
      previous = frameId;
      const QString mismatch = patternMismatch(reinterpret_cast<const std::uint16_t*>(frame.data()),
                                               frameId, pixelFormat == "Mono8");
      QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
    }
    const std::uint64_t sent = idSpan(*source);
    QCOMPARE(source->lostFrames(), sent - 24);  // any frame the link lost is counted
    source->stopAcquisition();
    const acquire::CameraStreamStatistics stats = source->cameraStatistics();
    QVERIFY(stats.completed >= 24);
  }

 private slots:
  void initTestCase() {
    camera_ = std::make_unique<test::FakeGigeCamera>(
        QStringLiteral("CF%1").arg(QCoreApplication::applicationPid() % 100000));
    QVERIFY2(camera_->started(), qPrintable(camera_->why()));
  }
  void cleanupTestCase() { camera_.reset(); }

  void listsTheSimulator() {
    bool found = false;
    for (const acquire::CameraInfo& camera : acquire::listCameras()) {
      if (camera.id == id()) {
        found = true;
        QCOMPARE(camera.protocol, std::string("GigEVision"));
        QCOMPARE(camera.address, std::string("127.0.0.1"));
      }
    }
    QVERIFY(found);
  }

  void monoSixteenFramesBitForBit() { checkFramesBitForBit("Mono16"); }
  void monoEightFramesWidenedBitForBit() { checkFramesBitForBit("Mono8"); }

  void refusesWhatItCannotRead() {
    // A colour format the camera offers: refused by name before anything starts.
    try {
      open(description("RGB8", 50));
      QFAIL("RGB8 was accepted");
    } catch (const acquire::SourceError& e) {
      QVERIFY2(std::strstr(e.what(), "pixel format RGB8") != nullptr, e.what());
      QVERIFY2(std::strstr(e.what(), "Mono16") != nullptr, e.what());
    }
    // A format Cineflow reads that this camera does not offer: named, with what it offers.
    try {
      open(description("Mono12", 50));
      QFAIL("Mono12 was accepted by a camera without it");
    } catch (const acquire::SourceError& e) {
      QVERIFY2(std::strstr(e.what(), "Mono12") != nullptr, e.what());
      QVERIFY2(std::strstr(e.what(), "offers") != nullptr, e.what());
    }
  }

  void namesAFeatureTheCameraLacksOrRefuses() {
    // The simulator is an area camera: no AcquisitionLineRate.
    try {
      open(description("Mono16", 50, 32, R"(, "line_rate_hz": 20000)"));
      QFAIL("a line rate was accepted by a camera without one");
    } catch (const acquire::SourceError& e) {
      QVERIFY2(std::strstr(e.what(), "AcquisitionLineRate") != nullptr, e.what());
      QVERIFY2(std::strstr(e.what(), "does not have it") != nullptr, e.what());
    }
    try {
      open(R"({"camera": {"features": {"SpectrometerGrating": 3}}, "wavelength_first_m": 790e-9,
               "wavelength_last_m": 890e-9, "centre_wavelength_m": 840e-9,
               "bscans_per_volume": 0, "bidirectional": false, "flyback_ascans": 0,
               "lateral_step_m": 1e-5, "elevation_step_m": 1e-5})");
      QFAIL("an unknown feature was accepted");
    } catch (const acquire::SourceError& e) {
      QVERIFY2(std::strstr(e.what(), "SpectrometerGrating") != nullptr, e.what());
    }
    // A value the camera refuses: the message names the feature and the value.
    try {
      open(description("Mono16", 50, 32, R"(, "trigger_source": "Line7")"));
      QFAIL("a trigger source the camera does not have was accepted");
    } catch (const acquire::SourceError& e) {
      QVERIFY2(std::strstr(e.what(), "TriggerSource") != nullptr, e.what());
      QVERIFY2(std::strstr(e.what(), "Line7") != nullptr, e.what());
    }
    try {
      acquire::openSource("genicam://" + id());
      QFAIL("a camera without its geometry was opened");
    } catch (const acquire::SourceError& e) {
      QVERIFY2(std::strstr(e.what(), "geometry") != nullptr, e.what());
    }
    try {
      acquire::openSource("genicam://NoSuchCamera#" + description("Mono16", 50));
      QFAIL("a camera that is not there was opened");
    } catch (const acquire::SourceError& e) {
      QVERIFY2(std::strstr(e.what(), "NoSuchCamera") != nullptr, e.what());
      QVERIFY2(std::strstr(e.what(), id().c_str()) != nullptr, e.what());  // what is there
    }
  }

  // Block: an engine that cannot follow (held by its observer) drops nothing: every frame the
  // camera delivered is imaged, in order, what the camera's buffers and the host ring hold while
  // it is held. A camera cannot be held back: a frame its link loses (a computer too busy to
  // read the network, as under a sanitizer) is counted, in its place, never silent.
  void blockLosesNothing() {
    pipeline::EngineConfig config;
    config.maxFrames = 40;
    config.hostRingSlots = 4;
    config.overflow = pipeline::OverflowPolicy::Block;
    HeldRun run(*cpu_, config, open(description("Mono16", 200, 64)));
    test::Collector& collector = run.collector;
    pipeline::Engine& engine = run.engine;
    const oct::GenicamSource* source = run.source;
    const auto releaseOnExit = qScopeGuard([&] { collector.release(); });
    QTRY_VERIFY_WITH_TIMEOUT(collector.stalled(), 30'000);
    // The camera goes on sending while the engine is held (200 frames/s): far past the host
    // ring's 4 slots, into the camera's 64 buffers.
    QTest::qWait(500);
    collector.release();
    QCOMPARE(engine.waitUntilFinished(), pipeline::EngineState::Finished);
    const pipeline::EngineStats stats = engine.stats();
    QCOMPARE(stats.processed, std::uint64_t(40));
    QCOMPARE(stats.dropped, std::uint64_t(0));
    const std::uint64_t sent = idSpan(*source);
    QCOMPARE(stats.acquired + stats.lost, sent);
    if (stats.lost > 0) {
      qWarning(
          "the camera's link lost %llu frames (counted): this computer did not read the "
          "network in time",
          static_cast<unsigned long long>(stats.lost));
    }
    const auto frames = collector.frames();
    QCOMPARE(frames.size(), std::size_t(40));
    for (std::size_t i = 1; i < frames.size(); ++i) {
      QVERIFY(frames[i].sequence > frames[i - 1].sequence);  // in order
    }
    QCOMPARE(frames.back().sequence, std::uint64_t(39) + stats.lost);  // the gaps are the lost
    bool counted = false;
    for (const auto& [name, value] : stats.sourceCounters) {
      if (name == "buffers") {
        counted = value >= 40;
      }
    }
    QVERIFY2(counted, "stats() carries the camera stream's completed buffers");
  }

  // Drop: with the engine held, the camera's frames are taken and dropped; every frame it sent
  // is accounted for exactly: imaged, dropped, or lost before Cineflow had it.
  void dropCountsExactly() {
    pipeline::EngineConfig config;
    config.maxFrames = 60;
    config.hostRingSlots = 2;
    config.overflow = pipeline::OverflowPolicy::Drop;
    HeldRun run(*cpu_, config, open(description("Mono16", 200, 8)));
    test::Collector& collector = run.collector;
    pipeline::Engine& engine = run.engine;
    const oct::GenicamSource* source = run.source;
    const auto releaseOnExit = qScopeGuard([&] { collector.release(); });
    QTRY_VERIFY_WITH_TIMEOUT(collector.stalled() && engine.stats().dropped >= 10, 30'000);
    collector.release();
    QCOMPARE(engine.waitUntilFinished(), pipeline::EngineState::Finished);
    const pipeline::EngineStats stats = engine.stats();
    const std::uint64_t sent = idSpan(*source);
    QVERIFY(stats.dropped >= 10);
    QCOMPARE(stats.acquired, std::uint64_t(60));
    QCOMPARE(stats.processed + stats.dropped, stats.acquired);
    QCOMPARE(stats.acquired + stats.lost, sent);
    QCOMPARE(collector.frames().size(), static_cast<std::size_t>(stats.processed));
  }

  // The camera disappears mid-run: the run fails saying so, what was imaged stays; once it is
  // back, starting again reconnects.
  void aCameraThatDisappearsAndComesBack() {
    pipeline::EngineConfig config;
    pipeline::Engine engine(*cpu_, config);
    engine.setSource(open(description("Mono16", 50)));
    engine.start();
    QTRY_VERIFY_WITH_TIMEOUT(engine.stats().processed >= 5, 30'000);
    camera_->kill();
    QTRY_VERIFY_WITH_TIMEOUT(engine.state() == pipeline::EngineState::Failed, 60'000);
    const pipeline::EngineStats failed = engine.stats();
    QVERIFY2(QString::fromStdString(failed.error).contains("stopped answering"),
             failed.error.c_str());
    QVERIFY(failed.processed >= 5);
    std::vector<float> pixels;
    acquire::FrameHeader header;
    process::ImageGeometry geometry;
    QVERIFY2(engine.copyLatest(~0ull, pixels, header, geometry),
             "the frames imaged before the camera went are kept");
    engine.stop();
    QVERIFY2(camera_->start(), qPrintable(camera_->why()));
    engine.start();  // reconnects to the same camera
    const std::uint64_t before = engine.stats().processed;
    QTRY_VERIFY_WITH_TIMEOUT(engine.stats().processed >= before + 5, 30'000);
    engine.stop();
    QCOMPARE(engine.state(), pipeline::EngineState::Stopped);
  }

  // The command line: cineflow cameras lists it; a headless run records its frames, which read
  // back bit for bit.
  void commandLineListsRecordsAndReadsBack() {
    const test::AppRun listed = test::runApp({"cameras"});
    QCOMPARE(listed.exitCode, 0);
    QVERIFY2(listed.out.contains(camera_->id()), qPrintable(listed.out));
    const test::AppRun offered = test::runApp({"cameras", camera_->id()});
    QCOMPARE(offered.exitCode, 0);
    QVERIFY2(offered.out.contains("Mono16*"), qPrintable(offered.out));
    const test::AppRun missing = test::runApp({"cameras", "NoSuchCamera"});
    QCOMPARE(missing.exitCode, 1);
    QVERIFY2(missing.err.contains("NoSuchCamera"), qPrintable(missing.err));

    QTemporaryDir folder;
    const QString recording = folder.filePath("camera.h5");
    const test::AppRun run = test::runApp(
        {"--headless", "--backend", "cpu", "--input",
         QString::fromStdString("genicam://" + id() + "#" + description("Mono16", 100)), "--frames",
         "16", "--record", recording, "--output", folder.filePath("bscans.h5")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    oct::OctFileSource replay(recording.toStdString());
    QCOMPARE(replay.frameCount(), std::uint64_t(16));
    std::vector<std::byte> frame(replay.frameBytes());
    const auto* counts = reinterpret_cast<const std::uint16_t*>(frame.data());
    acquire::SliceInfo slice;
    std::uint64_t previous = 0;
    for (std::uint64_t i = 0; i < 16; ++i) {
      replay.readFrame(i, frame, slice);
      // Frame id n fills (0, 0) with 256 n mod 65535, one n for each value (256 and 65535 are
      // coprime): the frame's id from its first pixel, then every pixel checked against it.
      std::uint64_t frameId = 1;
      while (frameId < 65535 && test::fakeMono16(0, 0, frameId) != counts[0]) {
        ++frameId;
      }
      QVERIFY2(frameId != previous, "a new frame each time");
      previous = frameId;
      const QString mismatch = patternMismatch(counts, frameId, false);
      QVERIFY2(mismatch.isEmpty(),
               qPrintable(QStringLiteral("recorded frame %1: ").arg(i) + mismatch));
    }
  }
};

QTEST_GUILESS_MAIN(TestGenicamSource)
#include "test_genicam_source.moc"

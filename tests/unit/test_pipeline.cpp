// The engine's threads, host ring, in-flight slots, overflow policies, cineloop and lifecycle on
// the CPU backend, with tagged frames that reveal any loss, reordering or mixing.
#include <QtTest>

#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "compute/backend.hpp"
#include "pipeline/engine.hpp"
#include "registry/ultrasound_engine.hpp"
#include "support/pipeline_checks.hpp"
#include "ultrasound/ultrasound_modality.hpp"

using namespace cineflow;
using namespace std::chrono_literals;
using test::Collector;
using test::smallGrid;
using test::verifyUnmixed;

class TestPipeline : public QObject {
  Q_OBJECT

 private:
  std::unique_ptr<compute::Backend> backend_ = compute::createBackend(compute::BackendRequest::Cpu);

 private slots:
  void blockLosesNothingAndKeepsOrder() { test::checkBlockLosesNothingAndKeepsOrder(*backend_); }

  void dropCountsExactlyAndNeverMixes() { test::checkDropCountsExactlyAndNeverMixes(*backend_); }

  void stopWhileBusyFinishesWhatWasAcquired() {
    test::checkStopWhileBusyFinishesWhatWasAcquired(*backend_);
  }

  void destroyWhileFramesAreInFlight() { test::checkDestroyWhileFramesAreInFlight(*backend_); }

  void restartBeginsANewAcquisition() {
    pipeline::EngineConfig config;
    config.pace = false;
    config.maxFrames = 50;
    Collector collector;
    auto engine = test::makeTaggedEngine(*backend_, config, &collector);
    for (int run = 0; run < 3; ++run) {
      engine->start();
      QCOMPARE(engine->waitUntilFinished(), pipeline::EngineState::Finished);
      engine->stop();
      QCOMPARE(engine->stats().processed, std::uint64_t(50));
    }
    const auto frames = collector.frames();
    QCOMPARE(frames.size(), std::size_t(150));
    QCOMPARE(frames[50].sequence, std::uint64_t(0));
    verifyUnmixed(frames);
  }

  void liveParameterChangeAppliesBetweenFrames() {
    pipeline::EngineConfig config;
    config.pace = false;
    config.maxFrames = 400;
    Collector collector;
    test::TaggedProcessor* processor = nullptr;
    auto engine = test::makeTaggedEngine(*backend_, config, &collector, 200us, nullptr, &processor);
    const int nxBefore = smallGrid(1.0).geometry().nx;
    const int nxAfter = smallGrid(2.0).geometry().nx;
    engine->start();
    QTRY_VERIFY_WITH_TIMEOUT(engine->stats().processed > 20, 10000);
    ultrasound::setImaging(*engine, smallGrid(2.0));
    QCOMPARE(engine->waitUntilFinished(), pipeline::EngineState::Finished);
    engine->stop();
    const auto frames = collector.frames();
    QCOMPARE(frames.size(), std::size_t(400));  // Block: the change loses no frame
    QCOMPARE(frames.front().nx, nxBefore);
    QCOMPARE(frames.back().nx, nxAfter);
    QCOMPARE(processor->configureCount.load(), 2);
    for (std::size_t i = 1; i < frames.size(); ++i) {  // switches once, never back
      QVERIFY(!(frames[i - 1].nx == nxAfter && frames[i].nx == nxBefore));
    }
    QCOMPARE(engine->cineloop().geometry().nx, nxAfter);
    verifyUnmixed(frames);
  }

  void sourceErrorFailsCleanly() {
    pipeline::EngineConfig config;
    config.pace = false;
    test::TaggedSource* source = nullptr;
    auto engine = test::makeTaggedEngine(*backend_, config, nullptr, 0us, &source);
    source->failAtIndex = 17;
    engine->start();
    QCOMPARE(engine->waitUntilFinished(), pipeline::EngineState::Failed);
    engine->stop();
    const auto stats = engine->stats();
    QVERIFY2(stats.error.find("injected read failure at frame 17") != std::string::npos,
             stats.error.c_str());
    QCOMPARE(stats.processed, std::uint64_t(17));
  }

  void stageErrorFailsCleanly() {
    pipeline::EngineConfig config;
    config.pace = false;
    test::TaggedProcessor* processor = nullptr;
    auto engine = test::makeTaggedEngine(*backend_, config, nullptr, 0us, nullptr, &processor);
    processor->failAtTag = 9;
    engine->start();
    QCOMPARE(engine->waitUntilFinished(), pipeline::EngineState::Failed);
    engine->stop();
    QVERIFY2(engine->stats().error.find("injected stage failure") != std::string::npos,
             engine->stats().error.c_str());
    // The engine can be started again after a failure.
    processor->failAtTag.reset();
    pipeline::EngineConfig finite = config;
    finite.maxFrames = 10;
    engine->setConfig(finite);
    engine->start();
    QCOMPARE(engine->waitUntilFinished(), pipeline::EngineState::Finished);
    engine->stop();
  }

  void cineloopKeepsTheLastFrames() {
    pipeline::EngineConfig config;
    config.pace = false;
    config.maxFrames = 100;
    config.cineloopFrames = 16;
    auto engine = test::makeTaggedEngine(*backend_, config, nullptr);
    engine->start();
    QCOMPARE(engine->waitUntilFinished(), pipeline::EngineState::Finished);
    engine->stop();
    const auto headers = engine->cineloop().headers();
    QCOMPARE(headers.size(), std::size_t(16));
    for (std::size_t i = 0; i < headers.size(); ++i) {
      QCOMPARE(headers[i].sequence, std::uint64_t(84 + i));
    }
    std::vector<float> pixels;
    acquire::FrameHeader header;
    process::ImageGeometry geometry;
    QVERIFY(engine->cineloop().copyImage(90, pixels, header, geometry));
    QCOMPARE(header.sequence, std::uint64_t(90));
    QCOMPARE(pixels[0], 90.0f);
    QCOMPARE(header.slice.sliceIndex, 90 % 4);
    QVERIFY(!engine->cineloop().copyImage(10, pixels, header, geometry));  // overwritten
    QVERIFY(engine->copyLatest(~0ull, pixels, header, geometry));
    QCOMPARE(header.sequence, std::uint64_t(99));
    QVERIFY(!engine->copyLatest(99, pixels, header, geometry));  // nothing newer
  }

  void statsNameEveryStage() {
    pipeline::EngineConfig config;
    config.pace = false;
    config.maxFrames = 40;
    auto engine = test::makeTaggedEngine(*backend_, config, nullptr, 100us);
    engine->start();
    engine->waitUntilFinished();
    engine->stop();
    const auto stats = engine->stats();
    QCOMPARE(stats.stages.size(), std::size_t(2));
    QCOMPARE(stats.stages[0].name, std::string("upload"));
    QCOMPARE(stats.stages[1].name, std::string("tag"));
    QVERIFY(stats.stages[1].medianMs >= 0.09);  // the stage sleeps 100 us per frame
    QVERIFY(stats.frameMedianMs >= stats.stages[1].medianMs);
  }

  void pacingFollowsTheSourceRate() {
    pipeline::EngineConfig config;
    config.pace = true;
    config.maxFrames = 30;
    auto engine = std::make_unique<pipeline::Engine>(*backend_, config);
    engine->setSource(std::make_unique<test::TaggedSource>(1024, 200.0));
    engine->setProcessor(std::make_unique<test::TaggedProcessor>());
    ultrasound::setImaging(*engine, smallGrid());
    const auto begin = std::chrono::steady_clock::now();
    engine->start();
    engine->waitUntilFinished();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    engine->stop();
    QVERIFY2(seconds > 0.13, qPrintable(QString("30 frames at 200 Hz took %1 s").arg(seconds)));
  }

  void frameRateChangesLiveWithoutLosingFrames() {
    // 20 Hz, then 400 Hz while running: the acquisition speeds up without a restart, and in Block
    // mode every frame is still processed, in order. Counts against the clock rather than times:
    // the pacer never runs ahead of its schedule, so at 20 Hz at most 1 + 20 frames per second
    // (and a catch-up frame or two after a delay) can be acquired however loaded the machine is;
    // 400 Hz shows as more frames than 20 Hz could ever give, which load can delay but not hide.
    using Clock = std::chrono::steady_clock;
    const auto secondsSince = [](Clock::time_point start) {
      return std::chrono::duration<double>(Clock::now() - start).count();
    };
    pipeline::EngineConfig config;
    config.pace = true;
    config.frameRateHz = 20.0;
    auto engine = std::make_unique<pipeline::Engine>(*backend_, config);
    engine->setSource(std::make_unique<test::TaggedSource>(1024, 1000.0));
    engine->setProcessor(std::make_unique<test::TaggedProcessor>());
    ultrasound::setImaging(*engine, smallGrid());
    Collector collector;
    engine->setFrameObserver(collector.observer());
    const auto started = Clock::now();
    engine->start();
    QTRY_VERIFY_WITH_TIMEOUT(engine->stats().acquired >= 3, 30'000);
    const auto slow = engine->stats().acquired;  // read before the clock: the bound stays safe
    const double slowSeconds = secondsSince(started);
    QVERIFY2(static_cast<double>(slow) <= 2 + 20 * slowSeconds,
             qPrintable(QString("%1 frames in %2 s at 20 Hz").arg(slow).arg(slowSeconds)));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, engine->setFrameRate(-1.0));

    const auto changed = Clock::now();
    const auto before = engine->stats().acquired;
    engine->setFrameRate(400.0);
    const auto fasterThan20Hz = [&] {
      const double since = static_cast<double>(engine->stats().acquired - before);
      return since > 5 + 20 * secondsSince(changed);
    };
    QTRY_VERIFY_WITH_TIMEOUT(fasterThan20Hz(), 30'000);
    QCOMPARE(engine->stats().state, pipeline::EngineState::Running);  // never stopped
    engine->stop();
    const auto final = engine->stats();
    QCOMPARE(final.processed, final.acquired);
    const auto frames = collector.frames();
    QCOMPARE(static_cast<std::uint64_t>(frames.size()), final.processed);
    for (std::size_t i = 0; i < frames.size(); ++i) {
      QCOMPARE(frames[i].sequence, static_cast<std::uint64_t>(i));
    }
  }

  void misuseIsRejected() {
    pipeline::EngineConfig bad;
    bad.inFlightSlots = 1;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pipeline::Engine(*backend_, bad));
    pipeline::Engine engine(*backend_, pipeline::EngineConfig{});
    QVERIFY_THROWS_EXCEPTION(std::logic_error, engine.start());  // no source
    engine.setSource(std::make_unique<test::TaggedSource>());
    ultrasound::ImagingParams negative = smallGrid();
    negative.grid.dx = -1;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ultrasound::setImaging(engine, negative));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pipeline::parseOverflowPolicy("sometimes"));
  }
};

QTEST_GUILESS_MAIN(TestPipeline)
#include "test_pipeline.moc"

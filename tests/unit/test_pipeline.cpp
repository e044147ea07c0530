// The engine's threads, host ring, in-flight slots, overflow policies, cineloop and lifecycle on
// the CPU backend, with tagged frames that reveal any loss, reordering or mixing.
#include <QtTest>

#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "compute/backend.hpp"
#include "pipeline/engine.hpp"
#include "support/tagged_frames.hpp"

using namespace cineflow;
using namespace std::chrono_literals;

namespace {

struct Observed {
  std::uint64_t sequence;
  float lo, hi;
  int nx;
};

class Collector {
 public:
  Collector() { frames_.reserve(100000); }
  pipeline::FrameObserver observer() {
    return [this](const pipeline::CompletedFrame& f) {
      std::lock_guard lock(mutex_);
      frames_.push_back({f.header.sequence, f.image[0], f.image[1], f.geometry.nx});
    };
  }
  std::vector<Observed> frames() const {
    std::lock_guard lock(mutex_);
    return frames_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<Observed> frames_;
};

process::ImagingParams smallGrid(double widthMm = 1.0) {
  process::ImagingParams p;
  char text[64];
  std::snprintf(text, sizeof text, "%.3f:%.3f:0.1,5:6:0.1", -widthMm / 2, widthMm / 2);
  p.grid = process::ImagingGrid::parseMillimetres(text);
  return p;
}

std::unique_ptr<pipeline::Engine> makeEngine(compute::Backend& backend, pipeline::EngineConfig config,
                                             Collector* collector,
                                             std::chrono::microseconds work = 0us,
                                             test::TaggedSource** sourceOut = nullptr,
                                             test::TaggedProcessor** processorOut = nullptr) {
  auto engine = std::make_unique<pipeline::Engine>(backend, config);
  auto source = std::make_unique<test::TaggedSource>();
  auto processor = std::make_unique<test::TaggedProcessor>(work);
  if (sourceOut) *sourceOut = source.get();
  if (processorOut) *processorOut = processor.get();
  engine->setSource(std::move(source));
  engine->setProcessor(std::move(processor));
  engine->setImagingParams(smallGrid());
  if (collector) engine->setFrameObserver(collector->observer());
  return engine;
}

}  // namespace

class TestPipeline : public QObject {
  Q_OBJECT

 private:
  std::unique_ptr<compute::Backend> backend_ = compute::createBackend(compute::BackendRequest::Cpu);

  static void verifyUnmixed(const std::vector<Observed>& frames) {
    for (const Observed& f : frames) {
      QVERIFY2(f.lo == f.hi, qPrintable(QString("frame %1 mixes inputs %2 and %3")
                                            .arg(f.sequence).arg(f.lo).arg(f.hi)));
      QCOMPARE(static_cast<std::uint64_t>(f.lo), f.sequence);
    }
  }

 private slots:
  void blockLosesNothingAndKeepsOrder() {
    pipeline::EngineConfig config;
    config.pace = false;
    config.hostRingSlots = 3;
    config.maxFrames = 300;
    config.overflow = pipeline::OverflowPolicy::Block;
    Collector collector;
    auto engine = makeEngine(*backend_, config, &collector, 300us);
    engine->start();
    QCOMPARE(engine->waitUntilFinished(), pipeline::EngineState::Finished);
    engine->stop();
    const auto frames = collector.frames();
    QCOMPARE(frames.size(), std::size_t(300));
    for (std::size_t i = 0; i < frames.size(); ++i) {
      QCOMPARE(frames[i].sequence, static_cast<std::uint64_t>(i));
    }
    verifyUnmixed(frames);
    const auto stats = engine->stats();
    QCOMPARE(stats.dropped, std::uint64_t(0));
    QCOMPARE(stats.processed, std::uint64_t(300));
    QCOMPARE(stats.acquired, std::uint64_t(300));
  }

  void dropCountsExactlyAndNeverMixes() {
    pipeline::EngineConfig config;
    config.pace = false;  // the producer is far faster than the 1 ms stage
    config.hostRingSlots = 2;
    config.maxFrames = 400;
    config.overflow = pipeline::OverflowPolicy::Drop;
    Collector collector;
    auto engine = makeEngine(*backend_, config, &collector, 1000us);
    engine->start();
    QCOMPARE(engine->waitUntilFinished(), pipeline::EngineState::Finished);
    engine->stop();
    const auto frames = collector.frames();
    const auto stats = engine->stats();
    QVERIFY2(stats.dropped > 0, "a producer faster than the consumer must drop in Drop mode");
    QCOMPARE(stats.acquired, std::uint64_t(400));
    QCOMPARE(stats.processed + stats.dropped, std::uint64_t(400));
    QCOMPARE(static_cast<std::uint64_t>(frames.size()), stats.processed);
    for (std::size_t i = 1; i < frames.size(); ++i) {
      QVERIFY(frames[i].sequence > frames[i - 1].sequence);
    }
    verifyUnmixed(frames);
  }

  void stopWhileBusyFinishesWhatWasAcquired() {
    pipeline::EngineConfig config;
    config.pace = false;
    config.hostRingSlots = 6;
    Collector collector;
    auto engine = makeEngine(*backend_, config, &collector, 500us);
    engine->start();
    std::this_thread::sleep_for(60ms);
    const auto before = std::chrono::steady_clock::now();
    engine->stop();
    QVERIFY(std::chrono::steady_clock::now() - before < 2s);
    QCOMPARE(engine->state(), pipeline::EngineState::Stopped);
    const auto stats = engine->stats();
    QVERIFY(stats.acquired > 0);
    QCOMPARE(stats.processed, stats.acquired);  // Block: nothing acquired is lost, even at stop
    QCOMPARE(static_cast<std::uint64_t>(collector.frames().size()), stats.processed);
    verifyUnmixed(collector.frames());
  }

  void destroyWhileFramesAreInFlight() {
    for (int round = 0; round < 25; ++round) {
      pipeline::EngineConfig config;
      config.pace = false;
      config.overflow = round % 2 ? pipeline::OverflowPolicy::Drop : pipeline::OverflowPolicy::Block;
      Collector collector;
      auto engine = makeEngine(*backend_, config, &collector, 200us);
      engine->start();
      std::this_thread::sleep_for(std::chrono::milliseconds(round % 5));
      engine.reset();  // destructor stops, drains and joins
      verifyUnmixed(collector.frames());
    }
  }

  void restartBeginsANewAcquisition() {
    pipeline::EngineConfig config;
    config.pace = false;
    config.maxFrames = 50;
    Collector collector;
    auto engine = makeEngine(*backend_, config, &collector);
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
    auto engine = makeEngine(*backend_, config, &collector, 200us, nullptr, &processor);
    const int nxBefore = smallGrid(1.0).geometry().nx;
    const int nxAfter = smallGrid(2.0).geometry().nx;
    engine->start();
    QTRY_VERIFY_WITH_TIMEOUT(engine->stats().processed > 20, 10000);
    engine->setImagingParams(smallGrid(2.0));
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
    auto engine = makeEngine(*backend_, config, nullptr, 0us, &source);
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
    auto engine = makeEngine(*backend_, config, nullptr, 0us, nullptr, &processor);
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
    auto engine = makeEngine(*backend_, config, nullptr);
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
    auto engine = makeEngine(*backend_, config, nullptr, 100us);
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
    engine->setImagingParams(smallGrid());
    const auto begin = std::chrono::steady_clock::now();
    engine->start();
    engine->waitUntilFinished();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    engine->stop();
    QVERIFY2(seconds > 0.13, qPrintable(QString("30 frames at 200 Hz took %1 s").arg(seconds)));
  }

  void misuseIsRejected() {
    pipeline::EngineConfig bad;
    bad.inFlightSlots = 1;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pipeline::Engine(*backend_, bad));
    pipeline::Engine engine(*backend_, pipeline::EngineConfig{});
    QVERIFY_THROWS_EXCEPTION(std::logic_error, engine.start());  // no source
    engine.setSource(std::make_unique<test::TaggedSource>());
    process::ImagingParams negative = smallGrid();
    negative.grid.dx = -1;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, engine.setImagingParams(negative));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pipeline::parseOverflowPolicy("sometimes"));
  }
};

QTEST_GUILESS_MAIN(TestPipeline)
#include "test_pipeline.moc"

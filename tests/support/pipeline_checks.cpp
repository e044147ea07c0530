#include "support/pipeline_checks.hpp"
#include "registry/ultrasound_engine.hpp"
#include "ultrasound/ultrasound_modality.hpp"

#include <QtTest>

#include <cstdio>
#include <thread>

namespace cineflow::test {

using namespace std::chrono_literals;

pipeline::FrameObserver Collector::observer() {
  return [this](const pipeline::CompletedFrame& f) {
    std::unique_lock lock(mutex_);
    frames_.push_back({f.header.sequence, f.image[0], f.image[1], f.geometry.nx});
    if (stallAt_ && f.header.sequence >= *stallAt_) {
      stallAt_.reset();
      stalled_ = true;
      released_.wait(lock, [this] { return !stalled_; });
    }
  };
}

std::vector<Observed> Collector::frames() const {
  std::lock_guard lock(mutex_);
  return frames_;
}

void Collector::stallAt(std::uint64_t sequence) {
  std::lock_guard lock(mutex_);
  stallAt_ = sequence;
}

bool Collector::stalled() const {
  std::lock_guard lock(mutex_);
  return stalled_;
}

void Collector::release() {
  {
    std::lock_guard lock(mutex_);
    stallAt_.reset();
    stalled_ = false;
  }
  released_.notify_all();
}

ultrasound::ImagingParams smallGrid(double widthMm) {
  ultrasound::ImagingParams p;
  char text[64];
  std::snprintf(text, sizeof text, "%.3f:%.3f:0.1,5:6:0.1", -widthMm / 2, widthMm / 2);
  p.grid = ultrasound::ImagingGrid::parseMillimetres(text);
  return p;
}

std::unique_ptr<pipeline::Engine> makeTaggedEngine(
    compute::Backend& backend, pipeline::EngineConfig config, Collector* collector,
    std::chrono::microseconds work, TaggedSource** sourceOut, TaggedProcessor** processorOut) {
  auto engine = std::make_unique<pipeline::Engine>(backend, config);
  auto source = std::make_unique<TaggedSource>();
  auto processor = std::make_unique<TaggedProcessor>(work);
  if (sourceOut)
    *sourceOut = source.get();
  if (processorOut)
    *processorOut = processor.get();
  engine->setSource(std::move(source));
  engine->setProcessor(std::move(processor));
  ultrasound::setImaging(*engine, smallGrid());
  if (collector)
    engine->setFrameObserver(collector->observer());
  return engine;
}

void verifyUnmixed(const std::vector<Observed>& frames) {
  for (const Observed& f : frames) {
    QVERIFY2(
        f.lo == f.hi,
        qPrintable(QString("frame %1 mixes inputs %2 and %3").arg(f.sequence).arg(f.lo).arg(f.hi)));
    QCOMPARE(static_cast<std::uint64_t>(f.lo), f.sequence);
  }
}

void checkBlockLosesNothingAndKeepsOrder(compute::Backend& backend) {
  pipeline::EngineConfig config;
  config.pace = false;
  config.hostRingSlots = 3;
  config.maxFrames = 300;
  config.overflow = pipeline::OverflowPolicy::Block;
  Collector collector;
  auto engine = makeTaggedEngine(backend, config, &collector, 300us);
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
void checkDropCountsExactlyAndNeverMixes(compute::Backend& backend) {
  pipeline::EngineConfig config;
  config.pace = false;  // the producer is far faster than the 1 ms stage
  config.hostRingSlots = 2;
  config.maxFrames = 400;
  config.overflow = pipeline::OverflowPolicy::Drop;
  Collector collector;
  auto engine = makeTaggedEngine(backend, config, &collector, 1000us);
  const auto releaseOnExit = qScopeGuard([&] { collector.release(); });
  // Held at its first frame, the engine takes nothing while the source goes on: drops are
  // certain, not a matter of which thread the machine runs first.
  collector.stallAt(0);
  engine->start();
  QTRY_VERIFY_WITH_TIMEOUT(collector.stalled() && engine->stats().dropped > 0, 30'000);
  collector.release();
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
void checkStopWhileBusyFinishesWhatWasAcquired(compute::Backend& backend) {
  pipeline::EngineConfig config;
  config.pace = false;
  config.hostRingSlots = 6;
  Collector collector;
  auto engine = makeTaggedEngine(backend, config, &collector, 500us);
  engine->start();
  QTRY_VERIFY_WITH_TIMEOUT(engine->stats().processed >= 20, 30'000);
  // The source never ends: stop() returning at all shows it did not wait for the source (a hang
  // fails through CTest's timeout; no wall-clock limit here).
  engine->stop();
  QCOMPARE(engine->state(), pipeline::EngineState::Stopped);
  const auto stats = engine->stats();
  QVERIFY(stats.acquired > 0);
  QCOMPARE(stats.processed, stats.acquired);  // Block: nothing acquired is lost, even at stop
  QCOMPARE(static_cast<std::uint64_t>(collector.frames().size()), stats.processed);
  verifyUnmixed(collector.frames());
}
void checkDestroyWhileFramesAreInFlight(compute::Backend& backend) {
  for (int round = 0; round < 25; ++round) {
    pipeline::EngineConfig config;
    config.pace = false;
    config.overflow = round % 2 ? pipeline::OverflowPolicy::Drop : pipeline::OverflowPolicy::Block;
    Collector collector;
    auto engine = makeTaggedEngine(backend, config, &collector, 200us);
    engine->start();
    std::this_thread::sleep_for(std::chrono::milliseconds(round % 5));
    engine.reset();  // destructor stops, drains and joins
    verifyUnmixed(collector.frames());
  }
}
}  // namespace cineflow::test

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "bench.hpp"
#include "pipeline/engine.hpp"

namespace cineflow::app {

pipeline::EngineConfig benchEngineConfig(std::uint64_t frames, std::uint64_t warmup) {
  pipeline::EngineConfig config;
  config.tuningPaybackFrames = 0;  // a benchmark runs the fastest variants, however few its frames
  config.pace = false;
  config.overflow = pipeline::OverflowPolicy::Block;
  config.maxFrames = warmup + frames;
  config.hostRingSlots = kBenchHostRingSlots;
  config.inFlightSlots = kBenchInFlightSlots;
  config.framesPerVolume = 0;
  // The stage statistics cover the timed frames (up to the engine's largest window).
  config.statsWindow = static_cast<int>(std::min<std::uint64_t>(frames, 100000));
  return config;
}

TimedRun timeUnpacedRun(pipeline::Engine& engine, std::uint64_t warmup,
                        const std::function<void()>& poll) {
  if (engine.hasFrameObserver()) {
    throw std::logic_error(
        "a benchmark times the chain without a frame observer (it adds a copy per frame)");
  }
  using Clock = std::chrono::steady_clock;
  engine.start();
  const auto pollOnce = [&] {
    if (poll) {
      try {
        poll();
      } catch (...) {
        engine.stop();
        throw;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  };
  std::uint64_t processedAtStart = 0;
  Clock::time_point begin;
  while (true) {
    processedAtStart = engine.processedFrames();
    begin = Clock::now();
    if (processedAtStart >= warmup || engine.state() != pipeline::EngineState::Running) {
      break;
    }
    pollOnce();
  }
  while (poll && engine.state() == pipeline::EngineState::Running) {
    pollOnce();
  }
  const pipeline::EngineState state = engine.waitUntilFinished();
  const Clock::time_point end = Clock::now();
  TimedRun run;
  run.frameObserver = engine.hasFrameObserver();
  run.framesTimed = engine.processedFrames() - processedAtStart;
  engine.stop();
  if (state == pipeline::EngineState::Failed) {
    throw std::runtime_error(engine.stats().error);
  }
  if (run.framesTimed == 0) {
    throw std::runtime_error("the run finished before it could be timed; raise --frames");
  }
  run.seconds = std::chrono::duration<double>(end - begin).count();
  return run;
}

}  // namespace cineflow::app

#include <chrono>
#include <stdexcept>

#include "bench.hpp"
#include "pipeline/engine.hpp"

namespace cineflow::app {

double timeUnpacedRun(pipeline::Engine& engine, std::uint64_t warmup) {
  std::chrono::steady_clock::time_point begin;
  std::uint64_t seen = 0;
  engine.setFrameObserver([&](const pipeline::CompletedFrame&) {
    if (++seen == warmup) {
      begin = std::chrono::steady_clock::now();
    }
  });
  engine.start();
  const pipeline::EngineState state = engine.waitUntilFinished();
  const auto end = std::chrono::steady_clock::now();
  engine.stop();
  if (state == pipeline::EngineState::Failed) {
    throw std::runtime_error(engine.stats().error);
  }
  if (seen <= warmup) {
    throw std::runtime_error("the run finished before it could be timed; raise --frames");
  }
  return std::chrono::duration<double>(end - begin).count();
}

}  // namespace cineflow::app

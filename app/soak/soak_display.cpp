#include "soak/soak_display.hpp"

#include <algorithm>
#include <vector>

#include "base/thread_name.hpp"

namespace cineflow::app {

DisplayConsumer::DisplayConsumer(const pipeline::Engine& engine, double hz)
    : engine_(engine),
      period_(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double>(1.0 / hz))),
      thread_([this] { run(); }) {}

DisplayConsumer::~DisplayConsumer() {
  stop();
}

void DisplayConsumer::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) {
    thread_.join();
  }
}

SequenceTally DisplayConsumer::tally() const {
  std::lock_guard lock(mutex_);
  return tally_;
}

void DisplayConsumer::run() {
  base::setCurrentThreadName("cf-soak-display");
  // What the window keeps between ticks: the last sequence shown and a frame's buffers, whose
  // capacity stays from one copy to the next.
  std::uint64_t lastSequence = ~std::uint64_t{0};
  std::vector<float> pixels;
  acquire::FrameHeader header;
  process::ImageGeometry geometry;
  auto nextTick = std::chrono::steady_clock::now();
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    nextTick = std::max(nextTick + period_, std::chrono::steady_clock::now());  // no catch-up burst
    if (wake_.wait_until(lock, nextTick, [this] { return stopping_; })) {
      break;
    }
    lock.unlock();
    const bool taken = engine_.copyLatest(lastSequence, pixels, header, geometry);
    lock.lock();
    if (taken) {
      lastSequence = header.sequence;
      tally_.see(header.sequence);
    }
  }
}

}  // namespace cineflow::app

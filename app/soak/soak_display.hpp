#pragma once
// DisplayConsumer: the display path of `cineflow soak`, as the window's display timer takes
// frames (ui/bridge/engine_controller.cpp, pollFrame): at a fixed rate it copies the newest
// complete image out of the engine (Engine::copyLatest, the cineloop's seqlock, never blocking the
// engine) when it is newer than the last one taken, on its own thread ("cf-soak-display").

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "pipeline/engine.hpp"
#include "soak/soak_report.hpp"

namespace cineflow::app {

class DisplayConsumer {
 public:
  // Starts polling `engine` (which must outlive the consumer) `hz` times a second.
  DisplayConsumer(const pipeline::Engine& engine, double hz);
  ~DisplayConsumer();  // stop()
  DisplayConsumer(const DisplayConsumer&) = delete;
  DisplayConsumer& operator=(const DisplayConsumer&) = delete;

  // Ends the polling and joins the thread. Idempotent.
  void stop();
  // The sequence numbers of the images taken so far. Any thread.
  SequenceTally tally() const;

 private:
  void run();

  const pipeline::Engine& engine_;
  std::chrono::steady_clock::duration period_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  SequenceTally tally_;
  std::thread thread_;
};

}  // namespace cineflow::app

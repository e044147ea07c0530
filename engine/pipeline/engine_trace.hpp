#pragma once
// The engine's tracing (Engine::setTraceRecorder), changeable while it runs. A request waits
// here; the engine thread takes it up between frames (adopt): tracks acquire, upload, compute
// and endpoint, and an anchor event that places device times on the host clock. The acquisition
// thread then sees the recorder too, and takes this object's lock only while one is set.

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string_view>

#include "compute/backend.hpp"
#include "profile/trace_recorder.hpp"

namespace cineflow::pipeline {

class EngineTrace {
 public:
  enum class Track { Acquire, Upload, Compute, Endpoint };

  // Any thread: the recorder for the engine thread to take up (null: stop tracing).
  void request(std::shared_ptr<profile::TraceRecorder> recorder);
  // The engine thread (or start(), before the threads): takes up a pending request, or the
  // last request again when `always` (a new run). The anchor is recorded on `stream`.
  void adopt(compute::Backend& backend, compute::Stream& stream, bool always = false);

  // The acquisition thread: the span of a frame's read, host clock.
  void addAcquire(std::int64_t startNs, std::int64_t endNs, std::int64_t frame);
  // The engine thread: whether it traces, and a device span between two of its timed events.
  bool active() const { return trace_ != nullptr; }
  void add(Track track, std::string_view name, const compute::Event& start,
           const compute::Event& end, std::int64_t frame);

 private:
  std::int64_t hostNs(const compute::Event& event) const;

  std::mutex mutex_;
  std::shared_ptr<profile::TraceRecorder> requested_;  // mutex_
  std::shared_ptr<profile::TraceRecorder> acquire_;    // mutex_: the acquisition thread's
  int acquireTrack_ = 0;                               // mutex_
  std::atomic<bool> acquireTracing_{false};            // whether acquire_ is set
  std::atomic<bool> pending_{false};
  std::shared_ptr<profile::TraceRecorder> trace_;  // the engine thread's
  std::array<int, 4> tracks_{};
  std::unique_ptr<compute::Event> anchor_;
  std::int64_t anchorNs_ = 0;
};

}  // namespace cineflow::pipeline

#include "pipeline/engine_trace.hpp"

#include "profile/stage_probe.hpp"

namespace cineflow::pipeline {

void EngineTrace::request(std::shared_ptr<profile::TraceRecorder> recorder) {
  {
    std::lock_guard lock(mutex_);
    requested_ = std::move(recorder);
  }
  pending_ = true;
}

void EngineTrace::adopt(compute::Backend& backend, compute::Stream& stream, bool always) {
  if (!pending_.exchange(false) && !always) {
    return;
  }
  std::shared_ptr<profile::TraceRecorder> next;
  {
    std::lock_guard lock(mutex_);
    next = requested_;
  }
  if (next) {
    tracks_ = {next->track("cf-acquire"), next->track("upload stream"),
               next->track("compute stream"), next->track("endpoint stream")};
    // Device times reach the host clock through one event completed at a known host time.
    if (!anchor_) {
      anchor_ = backend.createEvent();
    }
    stream.record(*anchor_);
    anchor_->synchronize();
    anchorNs_ = profile::steadyNowNs();
  }
  trace_ = next;
  std::lock_guard lock(mutex_);
  acquireTracing_ = next != nullptr;
  acquire_ = std::move(next);
  acquireTrack_ = tracks_[0];
}

void EngineTrace::addAcquire(std::int64_t startNs, std::int64_t endNs, std::int64_t frame) {
  if (!acquireTracing_.load(std::memory_order_relaxed)) {
    return;
  }
  std::shared_ptr<profile::TraceRecorder> recorder;
  int track = 0;
  {
    std::lock_guard lock(mutex_);
    recorder = acquire_;
    track = acquireTrack_;
  }
  if (recorder) {
    recorder->add(track, "acquire", startNs, endNs, frame);
  }
}

void EngineTrace::add(Track track, std::string_view name, const compute::Event& start,
                      const compute::Event& end, std::int64_t frame) {
  if (trace_) {
    trace_->add(tracks_[static_cast<std::size_t>(track)], name, hostNs(start), hostNs(end), frame);
  }
}

std::int64_t EngineTrace::hostNs(const compute::Event& event) const {
  return anchorNs_ + static_cast<std::int64_t>(event.elapsedMsSince(*anchor_) * 1e6);
}

}  // namespace cineflow::pipeline

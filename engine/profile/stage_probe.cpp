#include "profile/stage_probe.hpp"

#include <chrono>
#include <utility>

namespace cineflow::profile {

std::int64_t steadyNowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

StageProbe::StageProbe(std::string name, std::string track, std::size_t window)
    : name_(std::move(name)), trackName_(std::move(track)), stats_(window) {}

void StageProbe::record(std::int64_t startNs, std::int64_t endNs, std::int64_t frame) {
  std::lock_guard lock(mutex_);
  stats_.add(static_cast<double>(endNs - startNs) * 1e-6);
  if (recorder_) {
    recorder_->add(track_, name_, startNs, endNs, frame);
  }
}

void StageProbe::attach(std::shared_ptr<TraceRecorder> recorder) {
  const int track = recorder ? recorder->track(trackName_) : 0;
  std::lock_guard lock(mutex_);
  recorder_ = std::move(recorder);
  track_ = track;
}

void StageProbe::clear() {
  std::lock_guard lock(mutex_);
  stats_.clear();
}

Summary StageProbe::summary() const {
  RollingStats copy(1);
  {
    std::lock_guard lock(mutex_);
    copy = stats_;
  }
  return copy.summary();
}

}  // namespace cineflow::profile

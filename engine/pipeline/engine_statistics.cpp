#include "pipeline/engine_statistics.hpp"

#include <algorithm>
#include <cstdio>

namespace cineflow::pipeline {

void EngineStatistics::startRun(std::size_t window) {
  std::lock_guard lock(mutex_);
  window_ = window;
  stages_.assign(names_.size(), profile::RollingStats(window));
  frames_ = profile::RollingStats(window);
  latency_ = profile::RollingStats(window);
  mip_ = profile::RollingStats(window);
  timeline_.clear();
  acquisitionRate_.reset();
  processingRate_ = profile::RateMeter();
  lastDamage_.clear();
  rebuildWatches();
}

void EngineStatistics::setStages(std::vector<std::string> names) {
  std::lock_guard lock(mutex_);
  names_ = std::move(names);
  stages_.assign(names_.size(), profile::RollingStats(window_));
  timeline_.clear();
  rebuildWatches();
}

bool EngineStatistics::stagesFrom(std::size_t first, std::span<const char* const> names) const {
  std::lock_guard lock(mutex_);
  return names_.size() >= first &&
         std::equal(names.begin(), names.end(), names_.begin() + static_cast<std::ptrdiff_t>(first),
                    names_.end());
}

void EngineStatistics::setChoices(std::vector<tune::StageChoice> choices) {
  std::lock_guard lock(mutex_);
  choices_ = std::move(choices);
  tuneNote_.clear();
  rebuildWatches();
}

void EngineStatistics::rebuildWatches() {
  watches_.clear();
  for (const tune::StageChoice& choice : choices_) {
    const tune::VariantTiming* timing = choice.entry.timing(choice.variant);
    const auto it = std::find(names_.begin(), names_.end(), choice.stage);
    if (timing != nullptr && it != names_.end()) {
      watches_.push_back({static_cast<std::size_t>(it - names_.begin()), choice.stage,
                          tune::DriftWatch(timing->ms)});
    }
  }
}

void EngineStatistics::recordFrame(const FrameSample& sample, std::vector<std::string>& drifted) {
  std::lock_guard lock(mutex_);
  profile::FrameTiming timing;
  timing.sequence = sample.sequence;
  for (std::size_t row = 0; row < sample.stageMs.size() && row < stages_.size(); ++row) {
    const double ms = sample.stageMs[row];
    if (ms < 0) {
      continue;
    }
    stages_[row].add(ms);
    if (row < timing.stageMs.size()) {
      timing.stageMs[row] = static_cast<float>(ms);
      timing.stages = static_cast<int>(row) + 1;
    }
    for (Watch& w : watches_) {
      if (w.row != row || w.watch.drifted() || !w.watch.observe(ms)) {
        continue;
      }
      drifted.push_back(w.stage);
      char text[240];
      if (w.watch.reason() == tune::DriftWatch::Reason::FarFromMeasurement) {
        std::snprintf(text, sizeof text,
                      "%s runs at about %.3g ms per frame here, %.2g times the %.3g ms measured "
                      "for its variant: Tune measures it again",
                      w.stage.c_str(), w.watch.baselineMs(),
                      w.watch.baselineMs() / w.watch.measuredMs(), w.watch.measuredMs());
      } else {
        std::snprintf(text, sizeof text,
                      "%s has run at about %.3g ms per frame lately, not the %.3g ms of its "
                      "first frames: Tune measures it again",
                      w.stage.c_str(), ms, w.watch.baselineMs());
      }
      tuneNote_ = text;
    }
  }
  frames_.add(sample.frameMs);
  timing.frameMs = static_cast<float>(sample.frameMs);
  timeline_.add(timing);
}

void EngineStatistics::recordDisplayed(double latencyMs) {
  std::lock_guard lock(mutex_);
  processingRate_.tick(secondsNow());
  latency_.add(latencyMs);
}

void EngineStatistics::recordMip(double ms) {
  std::lock_guard lock(mutex_);
  mip_.add(ms);
}

void EngineStatistics::tickAcquired() {
  acquisitionRate_.tick(secondsNow());
}

void EngineStatistics::noteDamage(const std::string& why) {
  std::lock_guard lock(mutex_);
  lastDamage_ = why;
}

void EngineStatistics::fill(EngineStats& s) const {
  // The engine thread records every frame under the lock: copy the samples under it and sort
  // them outside, so that a poll never stalls the frame loop for the order statistics.
  std::vector<std::string> names;
  std::vector<profile::RollingStats> stages;
  profile::RollingStats frames, latency, mip;
  {
    std::lock_guard lock(mutex_);
    const double now = secondsNow();
    s.acquisitionFps = acquisitionRate_.ratePerSecond(now);
    s.processingFps = processingRate_.ratePerSecond(now);
    s.lastDamage = lastDamage_;
    s.variants = choices_;
    s.tuneNote = tuneNote_;
    names = names_;
    stages = stages_;
    frames = frames_;
    latency = latency_;
    mip = mip_;
  }
  const auto variantOf = [&s](const std::string& stage) {
    for (const tune::StageChoice& choice : s.variants) {
      if (choice.stage == stage) {
        return choice.variant;
      }
    }
    return std::string();
  };
  for (std::size_t i = 0; i < names.size() && i < stages.size(); ++i) {
    s.stages.push_back(toStageStats(names[i], stages[i].summary()));
    s.stages.back().variant = variantOf(names[i]);
  }
  s.frameMedianMs = frames.summary().median;
  s.latency = toStageStats("latency", latency.summary());
  s.mip = toStageStats("mip", mip.summary());
  s.mip.variant = variantOf("mip");
}

void EngineStatistics::copyTimeline(std::size_t frames,
                                    std::vector<profile::FrameTiming>& out) const {
  std::lock_guard lock(mutex_);
  timeline_.copyLast(frames, out);
}

double EngineStatistics::secondsNow() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - epoch_).count();
}

}  // namespace cineflow::pipeline

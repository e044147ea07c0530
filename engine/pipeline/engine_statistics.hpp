#pragma once
// What the engine measures while it runs, and the stage choices the tuner made: written by the
// engine's threads, read by any thread (Engine::stats(), copyTimeline()). It holds its own lock,
// which the acquisition thread never takes (its rate is lock-free) and the engine thread takes
// once per frame, for the frame's samples.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "pipeline/engine_types.hpp"
#include "profile/frame_timeline.hpp"
#include "profile/rolling_stats.hpp"
#include "tune/tuning.hpp"

namespace cineflow::pipeline {

class EngineStatistics {
 public:
  // One frame's device times as the engine thread read them from its events.
  struct FrameSample {
    std::uint64_t sequence = 0;
    // Per stage row (setStages); a row the frame did not run (a frame that arrived decoded has
    // no "decode") is negative.
    std::span<const double> stageMs;
    double frameMs = 0;  // upload start to the end of its stages
  };

  // A new run (no thread of it running yet): empty windows of `window` samples, no rates, no
  // damage noted, fresh drift watches; the stage rows and choices stay until set again.
  void startRun(std::size_t window);
  // The stage rows ("upload", "decode" for staged frames, then the processor's stages), with
  // empty windows and timeline; the drift watches follow them.
  void setStages(std::vector<std::string> names);
  // Whether the rows from `first` on are `names`.
  bool stagesFrom(std::size_t first, std::span<const char* const> names) const;
  // The tuner's choices (the note is cleared); the drift watches follow them.
  void setChoices(std::vector<tune::StageChoice> choices);

  // The engine thread, once per completed frame. A drift watch that fires sets the note and
  // appends its stage to `drifted` (Tune measures it again).
  void recordFrame(const FrameSample& sample, std::vector<std::string>& drifted);
  void recordDisplayed(double latencyMs);  // an image became displayable (notify stream)
  void recordMip(double ms);               // a volume's MIPs (endpoint stream)
  void tickAcquired();                     // the acquisition thread: lock-free
  void noteDamage(const std::string& why);

  // Everything above into `stats` (rates, stage rows with their variants, latency, MIPs).
  void fill(EngineStats& stats) const;
  void copyTimeline(std::size_t frames, std::vector<profile::FrameTiming>& out) const;

 private:
  struct Watch {
    std::size_t row;
    std::string stage;
    tune::DriftWatch watch;
  };
  void rebuildWatches();  // mutex_ held
  double secondsNow() const;

  mutable std::mutex mutex_;
  std::size_t window_ = 120;
  std::vector<std::string> names_;
  std::vector<profile::RollingStats> stages_;
  profile::RollingStats frames_, latency_, mip_;
  profile::FrameTimeline timeline_;
  profile::PublishedRateMeter acquisitionRate_;  // lock-free: one writer
  profile::RateMeter processingRate_;
  std::vector<tune::StageChoice> choices_;
  std::string tuneNote_;
  std::string lastDamage_;
  std::vector<Watch> watches_;
  const std::chrono::steady_clock::time_point epoch_ = std::chrono::steady_clock::now();
};

}  // namespace cineflow::pipeline

#pragma once
// StageProbe: the timing of one host-timed activity outside the engine's frame loop, such as the
// GUI's display copy or the saver's I/O. It keeps rolling statistics of the durations (the
// profiler overlay's rows) and, while a TraceRecorder is attached, adds one span per occurrence
// on the probe's own track, keyed by frame so that Perfetto's flow arrows reach it.
//
// Thread safety: every method may be called from any thread. record() takes a mutex and never
// allocates; attach() registers the track (allocates), so call it off the timed path.

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "profile/rolling_stats.hpp"
#include "profile/trace_recorder.hpp"

namespace cineflow::profile {

class StageProbe {
 public:
  // `name`: the statistic's and the spans' name ("display"); `track`: the trace track ("gui").
  StageProbe(std::string name, std::string track, std::size_t window = 120);
  StageProbe(const StageProbe&) = delete;
  StageProbe& operator=(const StageProbe&) = delete;

  // One occurrence from startNs to endNs on the host steady clock (steadyNowNs()); `frame`
  // is the sequence number of the frame it concerns, or -1.
  void record(std::int64_t startNs, std::int64_t endNs, std::int64_t frame = -1);
  // Spans go to `recorder` from now on; null stops them. The probe keeps a reference meanwhile.
  void attach(std::shared_ptr<TraceRecorder> recorder);
  void clear();  // forgets the statistics (not the recorder)

  const std::string& name() const { return name_; }
  // Allocates a sorted copy of the window (RollingStats::summary): call it off the timed path.
  Summary summary() const;

 private:
  const std::string name_, trackName_;
  mutable std::mutex mutex_;
  RollingStats stats_;
  std::shared_ptr<TraceRecorder> recorder_;
  int track_ = 0;
};

// Host steady clock in nanoseconds, the clock of FrameHeader::timestampNs and of every trace.
std::int64_t steadyNowNs();

}  // namespace cineflow::profile

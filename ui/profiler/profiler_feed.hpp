#pragma once
// ProfilerFeed: while the profiler overlay is on (View > Profiler, F2), turns each statistics
// update of the engine (EngineController::statsUpdated, a few times a second) into a
// ProfilerSnapshot for the live view: the stage statistics and latency, the last kTimelineFrames
// frames' stage times, the rates, ring, drops and memory of the status bar, and the overlay's own
// last paint time; and one row each for the volumes' MIPs and the probes given (display copy,
// save I/O) once they have samples. Off, it does nothing and the view draws no panel.

#include <QObject>

#include <vector>

#include "pipeline/engine_types.hpp"
#include "profile/stage_probe.hpp"

namespace cineflow::ui {

class ImageView;
class EngineController;
class StatusIndicators;

class ProfilerFeed : public QObject {
  Q_OBJECT

 public:
  static constexpr std::size_t kTimelineFrames = 120;

  // Everything passed in must outlive the feed.
  ProfilerFeed(EngineController& controller, const StatusIndicators& indicators, ImageView& view,
               std::vector<const profile::StageProbe*> probes, QObject* parent = nullptr);
  bool enabled() const { return enabled_; }

 public slots:
  void setEnabled(bool enabled);

 private:
  void onStats(const pipeline::EngineStats& stats);

  EngineController& controller_;
  const StatusIndicators& indicators_;
  ImageView& view_;
  std::vector<const profile::StageProbe*> probes_;
  bool enabled_ = false;
};

}  // namespace cineflow::ui

#include "profiler/profiler_feed.hpp"

#include <memory>

#include "bridge/engine_controller.hpp"
#include "profiler/status_indicators.hpp"
#include "view2d/image_view.hpp"
#include "view2d/profiler_overlay.hpp"

namespace cineflow::ui {

ProfilerFeed::ProfilerFeed(EngineController& controller, const StatusIndicators& indicators,
                           ImageView& view, std::vector<const profile::StageProbe*> probes,
                           QObject* parent)
    : QObject(parent),
      controller_(controller),
      indicators_(indicators),
      view_(view),
      probes_(std::move(probes)) {
  connect(&controller_, &EngineController::statsUpdated, this, &ProfilerFeed::onStats);
}

void ProfilerFeed::setEnabled(bool enabled) {
  enabled_ = enabled;
  if (!enabled_) {
    view_.setProfiler(nullptr);
    return;
  }
  onStats(controller_.engine().stats());  // at once, not at the next update
}

void ProfilerFeed::onStats(const pipeline::EngineStats& stats) {
  if (!enabled_) {
    return;
  }
  auto snapshot = std::make_shared<ProfilerSnapshot>();
  snapshot->stages = stats.stages;
  snapshot->latency = stats.latency;
  if (stats.mip.count > 0) {
    snapshot->others.push_back(stats.mip);
  }
  for (const profile::StageProbe* probe : probes_) {
    if (const profile::Summary summary = probe->summary(); summary.count > 0) {
      snapshot->others.push_back(pipeline::toStageStats(probe->name(), summary));
    }
  }
  snapshot->acquisitionFps = stats.acquisitionFps;
  snapshot->processingFps = stats.processingFps;
  snapshot->displayFps = indicators_.displayFps();
  snapshot->ringOccupancy = stats.ringOccupancy;
  snapshot->ringSlots = stats.ringSlots;
  snapshot->dropped = stats.dropped;
  snapshot->memoryUsedGiB = indicators_.memoryUsedGiB();
  snapshot->memoryTotalGiB = indicators_.memoryTotalGiB();
  controller_.engine().copyTimeline(kTimelineFrames, snapshot->timeline);
  snapshot->overlayMs = view_.profilerPaintMs();
  snapshot->overlayRenderMs = view_.profilerRenderMs();
  view_.setProfiler(std::move(snapshot));
}

}  // namespace cineflow::ui

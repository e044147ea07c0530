#pragma once
// The profiler overlay (F2): a translucent panel over the live image's top-right corner with the
// engine's per-stage statistics (last, median, p99, max, mean, std in ms over the statistics
// window), the end-to-end latency, the acquisition / processing / display rates, the host ring's
// occupancy, dropped frames and device memory; under the table a stacked-bar timeline of the last
// frames, one colour per stage, with a legend. Drawn with QPainter after the image (ImageView),
// from a snapshot the main window refreshes with the statistics (a few times a second), so that
// painting never reads the engine.

#include <QColor>
#include <QRectF>
#include <QString>
#include <cstdint>
#include <vector>

#include "pipeline/engine_types.hpp"
#include "profile/frame_timeline.hpp"

class QPainter;

namespace cineflow::ui {

struct ProfilerSnapshot {
  std::vector<pipeline::StageStats> stages;  // upload first, then the processor's stages
  // Timed outside the frame's stages: the MIPs (per volume), the display copy (per displayed
  // frame), save I/O (per volume); only those with samples.
  std::vector<pipeline::StageStats> others;
  pipeline::StageStats latency;  // source timestamp to displayable
  double acquisitionFps = 0, processingFps = 0, displayFps = 0;
  int ringOccupancy = 0, ringSlots = 0;
  std::uint64_t dropped = 0;
  double memoryUsedGiB = 0, memoryTotalGiB = 0;  // total 0: not known
  std::vector<profile::FrameTiming> timeline;    // oldest first
  double overlayMs = 0;        // the overlay's cost per displayed frame (compositing), last paint
  double overlayRenderMs = 0;  // and per snapshot (drawing the panel), last snapshot
};

// The colour of stage `index` in the table's swatches and the timeline's bars.
QColor stageColour(int index);

// Paints the panel inside `area` (widget pixels), anchored at its top-right corner, sized from its
// text (the font shrinks to fit a narrow area, down to 6 pt, then the value columns after the
// median go), and returns the rectangle it covered. Leaves the painter's state as it found it.
QRectF paintProfiler(QPainter& painter, const QRectF& area, const ProfilerSnapshot& snapshot);

}  // namespace cineflow::ui

#pragma once
// Export of the cineloop as 8-bit grey PNG frames, mapped from dB exactly as the display maps them
// ([gain - dynamic range, gain] -> [0, 255]), one file per kept frame, plus index.csv:
//
//   <folder>/frame_<sequence, 6 digits>.png   nz rows x nx columns, depth downward
//   <folder>/index.csv                        sequence,timestamp_ns,elevation_m,file
//
// Every file is first written under a hidden temporary name; only when all of them are written are
// they renamed to their final names, so a failure (unwritable folder, full disk) leaves neither
// partial files nor a partial set behind: the temporaries are removed and the reason returned.

#include <atomic>
#include <functional>

#include <QImage>
#include <QString>

#include "frame.hpp"
#include "pipeline/cineloop.hpp"

namespace cineflow::ui {

// How dB values become grey: the display's gain and dynamic range.
struct GreyLevels {
  double gainDb = 0.0;           // shown as white
  double dynamicRangeDb = 60.0;  // dB span from black to white (> 0)
};

struct CineloopExportResult {
  bool ok = false;
  int framesWritten = 0;
  int framesSkipped = 0;  // overwritten by the engine between listing and copying
  QString message;        // for the operator: what was written, or why nothing was
};

// Fills `image` (reallocated only when the geometry changes) with the grey rendering of `frame`.
void renderGrey(const Frame& frame, const GreyLevels& levels, QImage& image);

// Called after each frame written: (frames done, frames listed).
using ExportProgress = std::function<void(int, int)>;

// Exports every complete cineloop entry (oldest first) into `folder`, created when missing.
// Runs on the calling thread (any thread: it reads the cineloop through its const reader API
// only). When `cancel` becomes true it stops before the next frame, removes what it wrote and
// returns a failure saying so.
CineloopExportResult exportCineloopPng(const pipeline::Cineloop& cineloop, const QString& folder,
                                       const GreyLevels& levels,
                                       const ExportProgress& progress = {},
                                       const std::atomic<bool>* cancel = nullptr);

// "frame_000042.png"
QString cineloopFrameFileName(std::uint64_t sequence);

}  // namespace cineflow::ui

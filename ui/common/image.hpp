#pragma once
// A completed image as the GUI sees it (B-mode, OCT, a volume's slice or projection): an
// immutable host copy shared between the EngineController (which fills it) and the views (which
// display it).

#include <memory>
#include <vector>

#include <QMetaType>

#include "acquire/frame.hpp"
#include "pipeline/engine_types.hpp"
#include "process/image_region.hpp"

namespace cineflow::ui {

struct Image {
  acquire::FrameHeader header;
  process::ImageGeometry geometry;
  std::vector<float> pixels;  // dB, [z][x], geometry.pixels() values; empty when in the cineloop
  // The CUDA display path: the pixels stayed in the engine's cineloop (device memory) and views
  // read them by header.sequence (ImageView::setLiveSource).
  bool pixelsInCineloop = false;
  // Every layer was computed from this frame (false where Doppler's flow layers repeat an earlier
  // estimate: pipeline::CompletedFrame::fresh).
  bool fresh = true;
};

}  // namespace cineflow::ui

// Signals carry these by value (queued connections and signal spies copy them), so Qt must know
// them; declared here, before any moc output instantiates them.
Q_DECLARE_METATYPE(std::shared_ptr<const cineflow::ui::Image>)
Q_DECLARE_METATYPE(cineflow::pipeline::EngineStats)
Q_DECLARE_METATYPE(cineflow::process::ColourBox)

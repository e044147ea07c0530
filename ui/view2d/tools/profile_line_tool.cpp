#include "view2d/tools/profile_line_tool.hpp"

#include <QPainter>

#include "view2d/image_view.hpp"
#include "view2d/profile_plot.hpp"

namespace cineflow::ui {

void ProfileLineTool::setLine(PhysicalPoint from, PhysicalPoint to) {
  line_ = {from, to};
  resample();
}

void ProfileLineTool::clear() {
  line_.reset();
  profile_ = {};
}

void ProfileLineTool::setAxial(bool enabled) {
  axial_ = enabled;
  if (!enabled) {
    clear();
  }
}

void ProfileLineTool::resample() {
  const std::shared_ptr<const Image>& displayed = view_.displayedFrame();
  if (!line_ || !displayed) {
    profile_ = {};
    return;
  }
  const std::span<const float> pixels = view_.displayedHostPixels();
  if (pixels.empty() && displayed->pixelsInCineloop) {
    return;  // overwritten since it was shown: keep the last profile
  }
  profile_ = sampleLine(pixels, displayed->geometry, line_->first, line_->second,
                        view_.displayedHostLayer(process::kVelocityLayer));
}

bool ProfileLineTool::press(QPointF pos, Qt::KeyboardModifiers modifiers) {
  if (modifiers & Qt::ShiftModifier) {
    if (const auto at = view_.widgetToPhysical(pos)) {
      drawing_ = true;
      setLine(*at, *at);
    }
    return true;  // Shift + drag never pans
  }
  return axial_ && view_.displayedFrame() != nullptr;  // the axial line follows the drag
}

void ProfileLineTool::move(QPointF pos) {
  if (drawing_ && line_) {
    if (const auto at = view_.widgetToPhysical(pos)) {
      setLine(line_->first, *at);
    }
  } else {
    followAxially(pos);
  }
}

void ProfileLineTool::hover(QPointF pos) {
  followAxially(pos);
}

void ProfileLineTool::followAxially(QPointF pos) {
  const std::shared_ptr<const Image>& displayed = view_.displayedFrame();
  if (!axial_ || !displayed) {
    return;
  }
  if (const auto at = view_.widgetToPhysical(pos)) {
    const auto& g = displayed->geometry;
    setLine({at->xM, g.z0}, {at->xM, g.z0 + (g.nz - 1) * g.dz});
  }
}

bool ProfileLineTool::doubleClick(QPointF pos, Qt::KeyboardModifiers modifiers) {
  (void)pos;
  if (!(modifiers & Qt::ShiftModifier)) {
    return false;
  }
  clear();
  return true;
}

void ProfileLineTool::paint(QPainter& painter) {
  if (!line_ || !view_.displayedFrame()) {
    return;
  }
  const QPointF from = view_.physicalToWidget(line_->first.xM, line_->first.zM);
  const QPointF to = view_.physicalToWidget(line_->second.xM, line_->second.zM);
  paintLineProfile(painter, view_.imageRectInWidget(), from, to, profile_);
}

}  // namespace cineflow::ui

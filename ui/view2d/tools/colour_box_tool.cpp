#include "view2d/tools/colour_box_tool.hpp"

#include <algorithm>
#include <cmath>

#include <QPainter>

#include "view2d/image_view.hpp"

namespace cineflow::ui {
namespace {

constexpr qreal kEdgeGrabPixels = 6;
const QColor kBoxColour(255, 215, 80);

// The whole image as a box: out to its outermost pixels' edges.
process::ColourBox wholeImage(const process::ImageGeometry& g) {
  return {g.x0 - g.dx / 2, g.x0 + (g.nx - 0.5) * g.dx, g.z0 - g.dz / 2, g.z0 + (g.nz - 0.5) * g.dz};
}

}  // namespace

bool ColourBoxTool::setBox(const process::ColourBox& box) {
  if (box == box_) {
    return false;
  }
  box_ = box;
  return true;
}

bool ColourBoxTool::press(QPointF pos, Qt::KeyboardModifiers modifiers) {
  if (view_.measureTool() != MeasureTool::None || (modifiers & Qt::ShiftModifier) ||
      !view_.showsFlow()) {
    return false;
  }
  const auto at = view_.widgetToPhysical(pos);
  if (!at) {
    return false;
  }
  const process::ColourBox box = box_.empty() ? wholeImage(view_.displayedFrame()->geometry) : box_;
  const QRectF rect(view_.physicalToWidget(box.x0, box.z0), view_.physicalToWidget(box.x1, box.z1));
  if (!rect.adjusted(-kEdgeGrabPixels, -kEdgeGrabPixels, kEdgeGrabPixels, kEdgeGrabPixels)
           .contains(pos)) {
    return false;
  }
  Drag drag;
  drag.left = std::abs(pos.x() - rect.left()) <= kEdgeGrabPixels;
  drag.right = !drag.left && std::abs(pos.x() - rect.right()) <= kEdgeGrabPixels;
  drag.top = std::abs(pos.y() - rect.top()) <= kEdgeGrabPixels;
  drag.bottom = !drag.top && std::abs(pos.y() - rect.bottom()) <= kEdgeGrabPixels;
  const bool onEdge = drag.left || drag.right || drag.top || drag.bottom;
  if (!onEdge) {
    if (box_.empty()) {
      return false;  // inside the whole image: the drag pans
    }
    drag.left = drag.right = drag.top = drag.bottom = true;  // inside: move
  }
  drag.from = *at;
  drag.start = box;
  drag_ = drag;
  return true;
}

void ColourBoxTool::move(QPointF pos) {
  const auto at = view_.widgetToPhysical(pos);
  if (!at || !drag_ || !view_.displayedFrame()) {
    return;
  }
  const Drag& d = *drag_;
  const auto& g = view_.displayedFrame()->geometry;
  const process::ColourBox image = wholeImage(g);
  const double xLo = image.x0, xHi = image.x1, zLo = image.z0, zHi = image.z1;
  double dx = at->xM - d.from.xM;
  double dz = at->zM - d.from.zM;
  process::ColourBox box = d.start;
  const bool whole = d.left && d.right && d.top && d.bottom;
  if (whole) {
    // Moved whole, kept inside the image.
    dx = std::clamp(dx, xLo - box.x0, xHi - box.x1);
    dz = std::clamp(dz, zLo - box.z0, zHi - box.z1);
    box = {box.x0 + dx, box.x1 + dx, box.z0 + dz, box.z1 + dz};
  } else {
    // An edge follows the cursor, at least a few pixels from its opposite edge.
    const double minX = 4 * g.dx, minZ = 4 * g.dz;
    if (d.left)
      box.x0 = std::clamp(box.x0 + dx, xLo, box.x1 - minX);
    if (d.right)
      box.x1 = std::clamp(box.x1 + dx, box.x0 + minX, xHi);
    if (d.top)
      box.z0 = std::clamp(box.z0 + dz, zLo, box.z1 - minZ);
    if (d.bottom)
      box.z1 = std::clamp(box.z1 + dz, box.z0 + minZ, zHi);
  }
  box_ = box;
}

void ColourBoxTool::release() {
  drag_.reset();
  emit view_.colourBoxChanged(box_);
}

void ColourBoxTool::paint(QPainter& painter) {
  if (box_.empty() || !view_.showsFlow()) {
    return;  // the whole image: its edges are the box
  }
  painter.save();
  painter.setRenderHint(QPainter::Antialiasing, false);
  QPen pen(kBoxColour, 1.0, drag_ ? Qt::SolidLine : Qt::DashLine);
  pen.setCosmetic(true);
  painter.setPen(pen);
  painter.setBrush(Qt::NoBrush);
  painter.setClipRect(view_.imageRectInWidget());
  painter.drawRect(
      QRectF(view_.physicalToWidget(box_.x0, box_.z0), view_.physicalToWidget(box_.x1, box_.z1)));
  painter.restore();
}

}  // namespace cineflow::ui

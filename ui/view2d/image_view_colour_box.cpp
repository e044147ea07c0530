// ImageView's colour box: drawing it and moving or resizing it with the mouse (image_view.hpp).
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

bool ImageView::showsFlow() const {
  return displayed_ && displayed_->geometry.hasFlow() && flowLook_.map != FlowMap::Off;
}

void ImageView::setColourBox(const process::ColourBox& box) {
  if (!(box == colourBox_)) {
    colourBox_ = box;
    update();
  }
}

bool ImageView::beginBoxDrag(QPointF widgetPos) {
  if (!showsFlow()) {
    return false;
  }
  const auto at = widgetToPhysical(widgetPos);
  if (!at) {
    return false;
  }
  const process::ColourBox box = colourBox_.empty() ? wholeImage(displayed_->geometry) : colourBox_;
  const QPointF topLeft = physicalToWidget(box.x0, box.z0);
  const QPointF bottomRight = physicalToWidget(box.x1, box.z1);
  const QRectF rect(topLeft, bottomRight);
  if (!rect.adjusted(-kEdgeGrabPixels, -kEdgeGrabPixels, kEdgeGrabPixels, kEdgeGrabPixels)
           .contains(widgetPos)) {
    return false;
  }
  BoxDrag drag;
  drag.left = std::abs(widgetPos.x() - rect.left()) <= kEdgeGrabPixels;
  drag.right = !drag.left && std::abs(widgetPos.x() - rect.right()) <= kEdgeGrabPixels;
  drag.top = std::abs(widgetPos.y() - rect.top()) <= kEdgeGrabPixels;
  drag.bottom = !drag.top && std::abs(widgetPos.y() - rect.bottom()) <= kEdgeGrabPixels;
  const bool onEdge = drag.left || drag.right || drag.top || drag.bottom;
  if (!onEdge) {
    if (colourBox_.empty()) {
      return false;  // inside the whole image: the drag pans
    }
    drag.left = drag.right = drag.top = drag.bottom = true;  // inside: move
  }
  drag.from = *at;
  drag.start = box;
  boxDrag_ = drag;
  return true;
}

void ImageView::extendBoxDrag(QPointF widgetPos) {
  const auto at = widgetToPhysical(widgetPos);
  if (!at || !displayed_) {
    return;
  }
  const BoxDrag& d = *boxDrag_;
  const auto& g = displayed_->geometry;
  const process::ColourBox image = wholeImage(g);
  const double xLo = image.x0, xHi = image.x1, zLo = image.z0, zHi = image.z1;
  double dx = at->xM - d.from.xM;
  double dz = at->zM - d.from.zM;
  process::ColourBox box = d.start;
  const bool move = d.left && d.right && d.top && d.bottom;
  if (move) {
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
  colourBox_ = box;
  update();
}

void ImageView::finishBoxDrag() {
  boxDrag_.reset();
  emit colourBoxChanged(colourBox_);
}

void ImageView::paintColourBox(QPainter& painter) {
  if (colourBox_.empty()) {
    return;  // the whole image: its edges are the box
  }
  painter.save();
  painter.setRenderHint(QPainter::Antialiasing, false);
  QPen pen(kBoxColour, 1.0, boxDrag_ ? Qt::SolidLine : Qt::DashLine);
  pen.setCosmetic(true);
  painter.setPen(pen);
  painter.setBrush(Qt::NoBrush);
  painter.setClipRect(imageRectInWidget());
  painter.drawRect(QRectF(physicalToWidget(colourBox_.x0, colourBox_.z0),
                          physicalToWidget(colourBox_.x1, colourBox_.z1)));
  painter.restore();
}

}  // namespace cineflow::ui

// ImageView's measurements and annotations: drawing a tool's shape with the mouse, measuring it
// on the displayed frame's pixels, and painting the list's entries for the frame on screen.

#include <QInputDialog>
#include <QPainter>

#include "measure/measurement_list.hpp"
#include "measure/measurement_painter.hpp"
#include "view2d/image_view.hpp"

namespace cineflow::ui {
namespace {

// Free-hand outlines keep a vertex per this many widget pixels of mouse travel.
constexpr double kFreehandStepPx = 3.0;

}  // namespace

void ImageView::setMeasurements(MeasurementList* list, const QString& viewName) {
  if (measurements_ != nullptr) {
    disconnect(measurements_, nullptr, this, nullptr);
  }
  measurements_ = list;
  measurementView_ = viewName;
  if (list != nullptr) {
    connect(list, &MeasurementList::changed, this, qOverload<>(&QWidget::update));
  }
  update();
}

void ImageView::setMeasureTool(MeasureTool tool) {
  tool_ = tool;
  draft_.clear();
  drawingShape_ = false;
  update();
}

bool ImageView::beginShape(QPointF widgetPos) {
  const auto at = widgetToPhysical(widgetPos);
  if (!at || measurements_ == nullptr || !imageRectInWidget().contains(widgetPos)) {
    return false;
  }
  emit measuringStarted();  // on a live image the window freezes, as a scanner does
  drawingShape_ = true;
  if (tool_ == MeasureTool::Contrast && draft_.size() == 2) {
    draft_.push_back(*at);  // the background box, after the target's
    draft_.push_back(*at);
  } else if (tool_ == MeasureTool::Freehand || tool_ == MeasureTool::Text) {
    draft_ = {*at};
  } else {
    draft_ = {*at, *at};
  }
  update();
  return true;
}

void ImageView::extendShape(QPointF widgetPos) {
  const auto at = widgetToPhysical(widgetPos);
  if (!at || draft_.empty()) {
    return;
  }
  if (tool_ == MeasureTool::Freehand) {
    const QPointF last = physicalToWidget(draft_.back().xM, draft_.back().zM);
    if (QLineF(last, widgetPos).length() >= kFreehandStepPx) {
      draft_.push_back(*at);
    }
  } else if (tool_ != MeasureTool::Text) {
    draft_.back() = *at;
  }
  update();
}

void ImageView::finishShape() {
  drawingShape_ = false;
  if (!displayed_ || measurements_ == nullptr || draft_.empty()) {
    draft_.clear();
    return;
  }
  if (tool_ == MeasureTool::Contrast && draft_.size() == 2) {
    return;  // the target is drawn: the background box comes next
  }
  Measurement m;
  m.tool = tool_;
  m.view = measurementView_;
  m.frame = displayed_->header.sequence;
  m.points = std::move(draft_);
  draft_.clear();
  // A click without a drag draws nothing (but Text, which is a point).
  const bool degenerate =
      m.tool != MeasureTool::Text &&
      (m.tool == MeasureTool::Freehand
           ? m.points.size() < 3
           : distanceM(m.points.front(), m.points[1]) <= 0 ||
                 distanceM(m.points[m.points.size() - 2], m.points.back()) <= 0);
  if (degenerate) {
    update();
    return;
  }
  if (m.tool == MeasureTool::Text || m.tool == MeasureTool::Arrow) {
    m.text = textPrompt_ ? textPrompt_(m.tool)
                         : QInputDialog::getText(this, toolName(m.tool), tr("Label:"));
    if (m.tool == MeasureTool::Text && m.text.trimmed().isEmpty()) {
      update();
      return;
    }
  }
  measure(m, displayedHostPixels(), displayed_->geometry);
  const int id = measurements_->add(std::move(m));
  emit measurementAdded(id);
}

void ImageView::paintMeasurements(QPainter& painter) {
  if (measurements_ == nullptr || !displayed_) {
    return;
  }
  const process::ImageGeometry& geometry = displayed_->geometry;
  const qreal ratio = devicePixelRatioF();
  const QRectF target = imageRectInFramebuffer();
  const PhysicalMapping map = [&](PhysicalPoint p) {
    return mapPhysicalToView(geometry, target, window_, p) / ratio;
  };
  const auto shown = [&](const Measurement& m) {
    return m.frame == displayed_->header.sequence && m.view == measurementView_;
  };
  painter.save();
  painter.setClipRect(imageRectInWidget());  // shapes stay on the image when zoomed
  for (const Measurement& m : measurements_->all()) {
    if (shown(m)) {
      paintMeasurement(painter, m, map, MeasurementPart::Shape);
    }
  }
  if (!draft_.empty()) {
    paintMeasurementDraft(painter, tool_, draft_, map);
  }
  painter.restore();
  for (const Measurement& m : measurements_->all()) {
    if (shown(m)) {
      paintMeasurement(painter, m, map, MeasurementPart::Label);
    }
  }
}

}  // namespace cineflow::ui

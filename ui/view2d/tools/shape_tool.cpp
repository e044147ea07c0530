#include "view2d/tools/shape_tool.hpp"

#include <QInputDialog>
#include <QLineF>
#include <QPainter>

#include "measure/measurement_list.hpp"
#include "measure/measurement_painter.hpp"
#include "view2d/image_view.hpp"

namespace cineflow::ui {
namespace {

// Free-hand outlines keep a vertex per this many widget pixels of mouse travel.
constexpr double kFreehandStepPx = 3.0;

}  // namespace

void ShapeTool::setList(MeasurementList* list, const QString& viewName) {
  if (list_ != nullptr) {
    QObject::disconnect(list_, nullptr, &view_, nullptr);
  }
  list_ = list;
  viewName_ = viewName;
  if (list != nullptr) {
    QObject::connect(list, &MeasurementList::changed, &view_, qOverload<>(&QWidget::update));
  }
}

void ShapeTool::setTool(MeasureTool tool) {
  tool_ = tool;
  draft_.clear();
}

bool ShapeTool::press(QPointF pos, Qt::KeyboardModifiers modifiers) {
  if (tool_ == MeasureTool::None || (modifiers & Qt::ShiftModifier)) {
    return false;
  }
  const auto at = view_.widgetToPhysical(pos);
  if (!at || list_ == nullptr || !view_.imageRectInWidget().contains(pos)) {
    return false;
  }
  emit view_.measuringStarted();  // on a live image the window freezes, as a scanner does
  if (tool_ == MeasureTool::Contrast && draft_.size() == 2) {
    draft_.push_back(*at);  // the background box, after the target's
    draft_.push_back(*at);
  } else if (tool_ == MeasureTool::Freehand || tool_ == MeasureTool::Text) {
    draft_ = {*at};
  } else {
    draft_ = {*at, *at};
  }
  return true;
}

void ShapeTool::move(QPointF pos) {
  const auto at = view_.widgetToPhysical(pos);
  if (!at || draft_.empty()) {
    return;
  }
  if (tool_ == MeasureTool::Freehand) {
    const QPointF last = view_.physicalToWidget(draft_.back().xM, draft_.back().zM);
    if (QLineF(last, pos).length() >= kFreehandStepPx) {
      draft_.push_back(*at);
    }
  } else if (tool_ != MeasureTool::Text) {
    draft_.back() = *at;
  }
}

void ShapeTool::release() {
  const std::shared_ptr<const Image>& displayed = view_.displayedFrame();
  if (!displayed || list_ == nullptr || draft_.empty()) {
    draft_.clear();
    return;
  }
  if (tool_ == MeasureTool::Contrast && draft_.size() == 2) {
    return;  // the target is drawn: the background box comes next
  }
  Measurement m;
  m.tool = tool_;
  m.view = viewName_;
  m.frame = displayed->header.sequence;
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
    view_.update();
    return;
  }
  if (m.tool == MeasureTool::Text || m.tool == MeasureTool::Arrow) {
    m.text = textPrompt_ ? textPrompt_(m.tool)
                         : QInputDialog::getText(&view_, toolName(m.tool), QObject::tr("Label:"));
    if (m.tool == MeasureTool::Text && m.text.trimmed().isEmpty()) {
      view_.update();
      return;
    }
  }
  measure(m, view_.displayedHostPixels(), displayed->geometry);
  const int id = list_->add(std::move(m));
  emit view_.measurementAdded(id);
}

void ShapeTool::paint(QPainter& painter) {
  const std::shared_ptr<const Image>& displayed = view_.displayedFrame();
  if (list_ == nullptr || !displayed) {
    return;
  }
  const PhysicalMapping map = [this](PhysicalPoint p) {
    return view_.physicalToWidget(p.xM, p.zM);
  };
  const auto shown = [&](const Measurement& m) {
    return m.frame == displayed->header.sequence && m.view == viewName_;
  };
  painter.save();
  painter.setClipRect(view_.imageRectInWidget());  // shapes stay on the image when zoomed
  for (const Measurement& m : list_->all()) {
    if (shown(m)) {
      paintMeasurement(painter, m, map, MeasurementPart::Shape);
    }
  }
  if (!draft_.empty()) {
    paintMeasurementDraft(painter, tool_, draft_, map);
  }
  painter.restore();
  for (const Measurement& m : list_->all()) {
    if (shown(m)) {
      paintMeasurement(painter, m, map, MeasurementPart::Label);
    }
  }
}

}  // namespace cineflow::ui

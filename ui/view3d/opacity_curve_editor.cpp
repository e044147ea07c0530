#include "view3d/opacity_curve_editor.hpp"

#include <algorithm>
#include <cmath>

#include <QMouseEvent>
#include <QPainter>

namespace cineflow::ui {
namespace {

constexpr double kMargin = 5.0;   // pixels around the plot, so end points can be grabbed
constexpr double kReach = 7.0;    // pixels within which a press takes a point
constexpr double kMinGap = 0.01;  // the least distance in level between two points

}  // namespace

OpacityCurveEditor::OpacityCurveEditor(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("opacityCurveEditor"));
  setMinimumSize(120, 56);
  setToolTip(
      tr("Opacity of each display level (left: the bottom of the dynamic range, right: the "
         "gain). Drag a point; press elsewhere to add one; double-click or right-click a "
         "point to remove it."));
  points_ = defaultPoints();
}

std::vector<QPointF> OpacityCurveEditor::defaultPoints() {
  return {{0.0, 0.0}, {0.4, 0.0}, {0.9, 0.3}, {1.0, 0.3}};
}

void OpacityCurveEditor::setPoints(std::vector<QPointF> points) {
  for (QPointF& p : points) {
    p = QPointF(std::clamp(p.x(), 0.0, 1.0), std::clamp(p.y(), 0.0, 1.0));
  }
  std::sort(points.begin(), points.end(),
            [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
  if (points.size() < 2) {
    points = defaultPoints();
  }
  points.front().setX(0.0);
  points.back().setX(1.0);
  points_ = std::move(points);
  update();
  emit curveChanged(table());
}

std::vector<float> OpacityCurveEditor::table(int count) const {
  std::vector<float> values(static_cast<std::size_t>(std::max(count, 2)));
  std::size_t segment = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double level = static_cast<double>(i) / static_cast<double>(values.size() - 1);
    while (segment + 2 < points_.size() && points_[segment + 1].x() < level) {
      ++segment;
    }
    const QPointF& a = points_[segment];
    const QPointF& b = points_[segment + 1];
    const double span = b.x() - a.x();
    const double t = span > 0 ? std::clamp((level - a.x()) / span, 0.0, 1.0) : 1.0;
    values[i] = static_cast<float>(a.y() + t * (b.y() - a.y()));
  }
  return values;
}

QPointF OpacityCurveEditor::toWidget(QPointF point) const {
  const double w = width() - 2 * kMargin, h = height() - 2 * kMargin;
  return {kMargin + point.x() * w, kMargin + (1.0 - point.y()) * h};
}

QPointF OpacityCurveEditor::fromWidget(QPointF position) const {
  const double w = std::max(1.0, width() - 2 * kMargin), h = std::max(1.0, height() - 2 * kMargin);
  return {std::clamp((position.x() - kMargin) / w, 0.0, 1.0),
          std::clamp(1.0 - (position.y() - kMargin) / h, 0.0, 1.0)};
}

int OpacityCurveEditor::pointNear(QPointF position) const {
  int nearest = -1;
  double best = kReach;
  for (std::size_t i = 0; i < points_.size(); ++i) {
    const QPointF d = toWidget(points_[i]) - position;
    const double distance = std::hypot(d.x(), d.y());
    if (distance <= best) {
      best = distance;
      nearest = static_cast<int>(i);
    }
  }
  return nearest;
}

void OpacityCurveEditor::moveTo(int index, QPointF position) {
  QPointF p = fromWidget(position);
  const auto i = static_cast<std::size_t>(index);
  if (i == 0) {
    p.setX(0.0);
  } else if (i + 1 == points_.size()) {
    p.setX(1.0);
  } else {
    p.setX(std::clamp(p.x(), points_[i - 1].x() + kMinGap, points_[i + 1].x() - kMinGap));
  }
  points_[i] = p;
  update();
  emit curveChanged(table());
}

void OpacityCurveEditor::removeAt(int index) {
  if (index <= 0 || index + 1 >= static_cast<int>(points_.size())) {
    return;  // the end points stay
  }
  points_.erase(points_.begin() + index);
  update();
  emit curveChanged(table());
}

void OpacityCurveEditor::mousePressEvent(QMouseEvent* event) {
  const int near = pointNear(event->position());
  if (event->button() == Qt::RightButton) {
    removeAt(near);
    return;
  }
  if (event->button() != Qt::LeftButton) {
    return;
  }
  if (near >= 0) {
    dragging_ = near;
    return;
  }
  // A new point where the press is, between its neighbours by level.
  const QPointF p = fromWidget(event->position());
  const auto after = std::upper_bound(points_.begin() + 1, points_.end() - 1, p.x(),
                                      [](double x, const QPointF& q) { return x < q.x(); });
  const auto index = static_cast<int>(after - points_.begin());
  points_.insert(after, p);
  dragging_ = index;
  moveTo(index, event->position());  // keeps it clear of its neighbours
}

void OpacityCurveEditor::mouseMoveEvent(QMouseEvent* event) {
  if (dragging_ >= 0 && (event->buttons() & Qt::LeftButton)) {
    moveTo(dragging_, event->position());
  }
}

void OpacityCurveEditor::mouseReleaseEvent(QMouseEvent*) {
  dragging_ = -1;
}

void OpacityCurveEditor::mouseDoubleClickEvent(QMouseEvent* event) {
  removeAt(pointNear(event->position()));
  dragging_ = -1;
}

void OpacityCurveEditor::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.fillRect(rect(), QColor(24, 24, 28));
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setPen(QPen(QColor(60, 60, 66), 1));
  painter.drawRect(QRectF(toWidget({0, 1}), toWidget({1, 0})));
  QPolygonF line;
  for (const QPointF& p : points_) {
    line << toWidget(p);
  }
  QPolygonF area = line;
  area << toWidget({1, 0}) << toWidget({0, 0});
  painter.setPen(Qt::NoPen);
  painter.setBrush(QColor(240, 200, 90, 50));
  painter.drawPolygon(area);
  painter.setPen(QPen(QColor(240, 200, 90), 1.5));
  painter.setBrush(Qt::NoBrush);
  painter.drawPolyline(line);
  painter.setBrush(QColor(240, 200, 90));
  for (const QPointF& p : line) {
    painter.drawEllipse(p, 3.0, 3.0);
  }
}

}  // namespace cineflow::ui

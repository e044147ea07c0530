#pragma once
// OpacityCurveEditor: the 3-D view's transfer function, the opacity of each display level, edited
// as a polyline through control points (level, opacity), both in [0, 1]. The first point stays at
// level 0 and the last at level 1 (they move up and down only); the others move freely between
// their neighbours. Press on empty ground to add a point (and drag it), drag a point to move it,
// double-click or right-click a point to remove it. curveChanged() carries the curve sampled at
// the 256 display levels the renderer's table holds.

#include <vector>

#include <QPointF>
#include <QWidget>

namespace cineflow::ui {

class OpacityCurveEditor : public QWidget {
  Q_OBJECT

 public:
  explicit OpacityCurveEditor(QWidget* parent = nullptr);

  // Control points, sorted by level; the first and last are moved to levels 0 and 1.
  void setPoints(std::vector<QPointF> points);
  const std::vector<QPointF>& points() const { return points_; }
  // The curve at `count` evenly spaced levels from 0 to 1 (linear between the points).
  std::vector<float> table(int count = 256) const;
  // The default curve: transparent up to 40 % of the range, rising to 0.3 at 90 %.
  static std::vector<QPointF> defaultPoints();

  // A point's position in the widget, and back (for tests and the mouse).
  QPointF toWidget(QPointF point) const;
  QPointF fromWidget(QPointF position) const;

 signals:
  void curveChanged(const std::vector<float>& table);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;

 private:
  int pointNear(QPointF position) const;  // -1 when none within reach
  void moveTo(int index, QPointF position);
  void removeAt(int index);

  std::vector<QPointF> points_;
  int dragging_ = -1;
};

}  // namespace cineflow::ui

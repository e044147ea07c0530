#include "measure/measurement_painter.hpp"

#include <algorithm>
#include <cmath>

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>
#include <QPolygonF>

namespace cineflow::ui {
namespace {

constexpr QColor kAccent{255, 214, 10};      // measurement yellow
constexpr QColor kBackground{96, 200, 255};  // a contrast's background region
constexpr QColor kAnnotation{120, 255, 140};
constexpr QColor kOutline{0, 0, 0, 170};

// Draws `path` twice: a dark outline, then the colour on top.
void strokeOutlined(QPainter& painter, const QPainterPath& path, const QColor& colour) {
  painter.setBrush(Qt::NoBrush);
  painter.setPen(QPen(kOutline, 3.0, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
  painter.drawPath(path);
  painter.setPen(QPen(colour, 1.5, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
  painter.drawPath(path);
}

QRectF mappedBox(PhysicalPoint a, PhysicalPoint b, const PhysicalMapping& map) {
  return QRectF(map(a), map(b)).normalized();
}

QPainterPath crossAt(QPointF p) {
  QPainterPath path;
  path.moveTo(p + QPointF(-5, 0));
  path.lineTo(p + QPointF(5, 0));
  path.moveTo(p + QPointF(0, -5));
  path.lineTo(p + QPointF(0, 5));
  return path;
}

QPainterPath arrowPath(QPointF tail, QPointF head) {
  QPainterPath path(tail);
  path.lineTo(head);
  const QPointF d = head - tail;
  const double length = std::hypot(d.x(), d.y());
  if (length > 1) {
    const QPointF u = d / length;
    const QPointF n(-u.y(), u.x());
    path.moveTo(head - 10 * u + 5 * n);
    path.lineTo(head);
    path.lineTo(head - 10 * u - 5 * n);
  }
  return path;
}

// The text in a dark box with its top-left at `at`.
void label(QPainter& painter, QPointF at, const QString& text, const QColor& colour) {
  const QFontMetricsF metrics(painter.font());
  QRectF box = metrics.boundingRect(text)
                   .translated(at - metrics.boundingRect(text).topLeft())
                   .adjusted(-3, -1, 3, 1);
  // Kept on the device: moved left (or up) where it would run past the right (or bottom) edge.
  const QRectF device = painter.window();
  box.translate(std::min(0.0, device.right() - box.right()),
                std::min(0.0, device.bottom() - box.bottom()));
  box.translate(std::max(0.0, device.left() - box.left()), std::max(0.0, device.top() - box.top()));
  painter.setPen(Qt::NoPen);
  painter.setBrush(QColor(0, 0, 0, 160));
  painter.drawRect(box);
  painter.setPen(colour);
  painter.drawText(box, Qt::AlignCenter, text);
}

// The shape of `tool` through `points` (a contrast's boxes: the ones there are).
void paintShape(QPainter& painter, MeasureTool tool, const std::vector<PhysicalPoint>& points,
                const PhysicalMapping& map) {
  QPainterPath path;
  switch (tool) {
    case MeasureTool::Caliper:
      if (points.size() == 2) {
        path.moveTo(map(points[0]));
        path.lineTo(map(points[1]));
        path.addPath(crossAt(map(points[0])));
        path.addPath(crossAt(map(points[1])));
        strokeOutlined(painter, path, kAccent);
      }
      break;
    case MeasureTool::Ellipse:
      if (points.size() == 2) {
        path.addEllipse(mappedBox(points[0], points[1], map));
        strokeOutlined(painter, path, kAccent);
      }
      break;
    case MeasureTool::Freehand:
      if (points.size() >= 2) {
        QPolygonF outline;
        for (const PhysicalPoint& p : points) {
          outline << map(p);
        }
        path.addPolygon(outline);
        path.closeSubpath();
        strokeOutlined(painter, path, kAccent);
      }
      break;
    case MeasureTool::Contrast:
      for (std::size_t box = 0; box + 1 < points.size(); box += 2) {
        QPainterPath ellipse;
        ellipse.addEllipse(mappedBox(points[box], points[box + 1], map));
        strokeOutlined(painter, ellipse, box == 0 ? kAccent : kBackground);
      }
      break;
    case MeasureTool::Arrow:
      if (points.size() == 2) {
        strokeOutlined(painter, arrowPath(map(points[0]), map(points[1])), kAnnotation);
      }
      break;
    case MeasureTool::Text:
    case MeasureTool::None:
      break;
  }
}

}  // namespace

void paintMeasurement(QPainter& painter, const Measurement& m, const PhysicalMapping& map,
                      MeasurementPart part) {
  if (m.points.empty()) {
    return;
  }
  painter.save();
  painter.setRenderHint(QPainter::Antialiasing, true);
  if (part != MeasurementPart::Label) {
    paintShape(painter, m.tool, m.points, map);
  }
  // The label: under an ellipse's box, beside a line's first point, at a text's point.
  const bool annotation = m.tool == MeasureTool::Text || m.tool == MeasureTool::Arrow;
  const QString text =
      annotation ? summaryText(m) : QStringLiteral("%1  %2").arg(m.id).arg(summaryText(m));
  if (part != MeasurementPart::Shape && !text.isEmpty()) {
    QPointF at = map(m.points.front());
    if (m.tool == MeasureTool::Ellipse || m.tool == MeasureTool::Contrast) {
      at = mappedBox(m.points[0], m.points[1], map).bottomLeft() + QPointF(0, 4);
    } else if (!annotation) {
      at += QPointF(8, 6);
    }
    label(painter, at, text, annotation ? kAnnotation : kAccent);
  }
  painter.restore();
}

void paintMeasurementDraft(QPainter& painter, MeasureTool tool,
                           const std::vector<PhysicalPoint>& points, const PhysicalMapping& map) {
  painter.save();
  painter.setRenderHint(QPainter::Antialiasing, true);
  paintShape(painter, tool, points, map);
  painter.restore();
}

}  // namespace cineflow::ui

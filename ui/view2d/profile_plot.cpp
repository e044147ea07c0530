#include "view2d/profile_plot.hpp"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

namespace cineflow::ui {
namespace {
const QColor kLine(250, 210, 60);
const QColor kPanel(12, 14, 18, 200);
const QColor kText(225, 228, 235);
const QColor kLevel(208, 135, 112);
const QColor kFlow(90, 190, 255);  // the velocity curve of an image with flow
constexpr qreal kPadding = 6;

// A length at the precision of what is measured: an OCT axial width of 9.7 um reads "9.7 µm", a
// depth of 0.27 mm "0.270 mm", an ultrasound width of 0.63 mm "0.63 mm".
QString lengthText(double metres) {
  const double size = std::abs(metres);
  if (size < 0.1e-3) {
    return QStringLiteral("%1 µm").arg(metres * 1e6, 0, 'f', 1);
  }
  return QStringLiteral("%1 mm").arg(metres * 1e3, 0, 'f', size < 10e-3 ? 3 : 2);
}
}  // namespace

QString describeProfile(const LineProfile& p) {
  const QString width =
      p.widthM ? lengthText(*p.widthM) : QCoreApplication::translate("LineProfile", "n/a");
  QString text = QCoreApplication::translate("LineProfile", "peak %1 dB at %2 · -6 dB width %3")
                     .arg(p.peakDb, 0, 'f', 1)
                     .arg(lengthText(p.peakDistanceM))
                     .arg(width);
  double low = INFINITY, high = -INFINITY;
  for (const double v : p.velocity) {
    if (std::isfinite(v)) {
      low = std::min(low, v);
      high = std::max(high, v);
    }
  }
  if (low <= high) {
    text += QCoreApplication::translate("LineProfile", " · velocity %1 to %2 m/s")
                .arg(low, 0, 'f', 3)
                .arg(high, 0, 'f', 3);
  }
  return text;
}

QRectF paintLineProfile(QPainter& painter, const QRectF& image, QPointF from, QPointF to,
                        const LineProfile& profile) {
  painter.save();
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setPen(QPen(kLine, 1.5));
  painter.drawLine(from, to);
  const QPointF along = to - from;
  const qreal length = std::hypot(along.x(), along.y());
  if (length > 0) {
    const QPointF normal(-along.y() / length * 5, along.x() / length * 5);
    painter.drawLine(from - normal, from + normal);
    painter.drawLine(to - normal, to + normal);
  }
  QRectF plot;
  if (!profile.empty()) {
    const QFontMetricsF metrics(painter.font());
    // Two lines (peak; width) so that a narrow plot does not cut the width off, and the plot at
    // least as wide as they are (units included), within the image.
    const QString readout =
        describeProfile(profile).replace(QStringLiteral(" · "), QStringLiteral("\n"));
    const qreal textWidth =
        std::ceil(metrics.boundingRect(QRectF(0, 0, 1e6, 1e6), Qt::AlignLeft, readout).width());
    const qreal width = std::min(
        std::max<qreal>(std::min<qreal>(image.width() * 0.6, 360), textWidth + 2 * kPadding + 1),
        image.width() - 2 * kPadding);
    const qreal height = std::min<qreal>(image.height() * 0.35, 140);
    plot = QRectF(image.left() + kPadding, image.bottom() - height - kPadding, width, height);
    painter.setPen(Qt::NoPen);
    painter.setBrush(kPanel);
    painter.drawRoundedRect(plot, 4, 4);
    const QRectF area =
        plot.adjusted(kPadding, kPadding + 2 * metrics.height(), -kPadding, -kPadding);
    const double top = profile.peakDb;
    const double bottom = top - 40.0;  // 40 dB under the peak fills the plot
    const double span = profile.distanceM.back() > 0 ? profile.distanceM.back() : 1.0;
    const auto point = [&](double distance, double db) {
      const double clamped = std::clamp(db, bottom, top);
      return QPointF(area.left() + area.width() * distance / span,
                     area.top() + area.height() * (top - clamped) / (top - bottom));
    };
    QPainterPath curve;
    curve.moveTo(point(profile.distanceM.front(), profile.db.front()));
    for (std::size_t i = 1; i < profile.db.size(); ++i) {
      curve.lineTo(point(profile.distanceM[i], profile.db[i]));
    }
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(kLevel, 1, Qt::DashLine));
    const qreal level = point(0, top - 6.0).y();
    painter.drawLine(QPointF(area.left(), level), QPointF(area.right(), level));
    painter.setPen(QPen(kLine, 1.5));
    painter.drawPath(curve);
    if (!profile.velocity.empty() && profile.aliasingVelocity > 0) {
      // The velocity over the same distance, -v_a at the bottom to +v_a at the top.
      QPainterPath flow;
      bool drawing = false;
      for (std::size_t i = 0; i < profile.velocity.size(); ++i) {
        const double v = profile.velocity[i];
        if (!std::isfinite(v)) {
          drawing = false;
          continue;
        }
        const QPointF at(
            area.left() + area.width() * profile.distanceM[i] / span,
            area.center().y() -
                area.height() / 2 * std::clamp(v / profile.aliasingVelocity, -1.0, 1.0));
        if (drawing) {
          flow.lineTo(at);
        } else {
          flow.moveTo(at);
          drawing = true;
        }
      }
      painter.setPen(QPen(kFlow, 1.5));
      painter.drawPath(flow);
    }
    painter.setPen(kText);
    painter.drawText(plot.adjusted(kPadding, kPadding / 2, -kPadding, 0),
                     Qt::AlignTop | Qt::AlignLeft, readout);
  }
  painter.restore();
  return plot;
}

}  // namespace cineflow::ui

#include "view2d/flow_colour_bar.hpp"

#include <algorithm>

#include <QFontMetricsF>
#include <QObject>
#include <QPainter>

#include "view2d/view_overlay.hpp"

namespace cineflow::ui {
namespace {
constexpr qreal kBarWidth = 12;
constexpr qreal kBarHeight = 110;
constexpr qreal kPad = 6;
constexpr qreal kLabelWidth = 110;
}  // namespace

QRectF flowColourBarRect(const QRectF& image) {
  const qreal height = std::min(kBarHeight, image.height() * 0.5) + 3 * kPad + 14;
  const qreal width = kBarWidth + kLabelWidth + 3 * kPad;
  return {image.right() - width - kPad, image.top() + kPad, width, height};
}

void paintFlowColourBar(QPainter& painter, const QRectF& image, const FlowLook& look,
                        double aliasingVelocity) {
  if (look.map == FlowMap::Off || image.isEmpty()) {
    return;
  }
  painter.save();
  const QRectF plate = flowColourBarRect(image);
  painter.setPen(Qt::NoPen);
  painter.setBrush(QColor(0, 0, 0, 150));
  painter.drawRoundedRect(plate, 4, 4);
  const QRectF bar(plate.right() - kPad - kBarWidth, plate.top() + kPad, kBarWidth,
                   plate.height() - 3 * kPad - 14);
  const int rows = std::max(1, static_cast<int>(bar.height()));
  for (int row = 0; row < rows; ++row) {
    const double t = 1.0 - (row + 0.5) / rows;  // 1 at the top
    const QRgb colour = look.map == FlowMap::Power ? powerColour(t) : velocityColour(2 * t - 1);
    painter.fillRect(QRectF(bar.left(), bar.top() + row, bar.width(), 1.0), QColor(colour));
  }
  painter.setPen(QColor(kOverlayTextColour));
  const QFontMetricsF metrics(painter.font());
  const auto label = [&](qreal y, const QString& text) {
    painter.drawText(
        QRectF(plate.left() + kPad, y - metrics.height() / 2, kLabelWidth, metrics.height()),
        Qt::AlignRight | Qt::AlignVCenter, text);
  };
  QString caption;
  if (look.map == FlowMap::Power) {
    label(bar.top(), QObject::tr("+%1 dB").arg(look.powerRangeDb, 0, 'f', 0));
    label(bar.bottom(), QObject::tr("threshold"));
    caption = QObject::tr("power Doppler");
  } else {
    label(bar.top(), QObject::tr("+%1 m/s").arg(aliasingVelocity, 0, 'f', 2));
    label(bar.center().y(), QObject::tr("0"));
    label(bar.bottom(), QObject::tr("-%1 m/s").arg(aliasingVelocity, 0, 'f', 2));
    caption = QObject::tr("aliasing ±%1 m/s").arg(aliasingVelocity, 0, 'f', 2);
  }
  painter.drawText(QRectF(plate.left() + kPad, bar.bottom() + kPad, plate.width() - 2 * kPad, 14),
                   Qt::AlignRight | Qt::AlignVCenter, caption);
  painter.restore();
}

}  // namespace cineflow::ui

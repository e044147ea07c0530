#include "common/media_icons.hpp"

#include <array>
#include <cmath>
#include <numbers>

#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

namespace cineflow::ui {
namespace {

constexpr std::array kSizes = {16, 20, 24, 32, 48};
const QColor kNormal(0xe6, 0xe6, 0xe6);
const QColor kDisabled(0x6c, 0x6c, 0x70);

// The shape in a 24 x 24 design grid.
void drawShape(QPainter& painter, MediaIcon kind, const QColor& colour) {
  painter.setPen(Qt::NoPen);
  painter.setBrush(colour);
  QPainterPath path;
  switch (kind) {
    case MediaIcon::Play:
      path.moveTo(7, 4.5);
      path.lineTo(19.5, 12);
      path.lineTo(7, 19.5);
      path.closeSubpath();
      painter.drawPath(path);
      break;
    case MediaIcon::Pause:
      painter.drawRect(QRectF(6, 5, 4.2, 14));
      painter.drawRect(QRectF(13.8, 5, 4.2, 14));
      break;
    case MediaIcon::Stop:
      painter.drawRoundedRect(QRectF(6, 6, 12, 12), 1.5, 1.5);
      break;
    case MediaIcon::StepBack:
      painter.drawRect(QRectF(5, 5, 3, 14));
      path.moveTo(19, 5);
      path.lineTo(9, 12);
      path.lineTo(19, 19);
      path.closeSubpath();
      painter.drawPath(path);
      break;
    case MediaIcon::StepForward:
      // The step-back shape, mirrored.
      painter.translate(24, 0);
      painter.scale(-1, 1);
      drawShape(painter, MediaIcon::StepBack, colour);
      break;
    case MediaIcon::Record:
      // A recorder's red dot (dimmed like the others when disabled).
      painter.setBrush(colour == kNormal ? QColor(0xe0, 0x60, 0x5a) : colour);
      painter.drawEllipse(QPointF(12, 12), 6.5, 6.5);
      break;
    case MediaIcon::Freeze: {
      // A six-spoke snowflake: the image stops, the cineloop stays.
      QPen pen(colour, 2.2, Qt::SolidLine, Qt::RoundCap);
      painter.setPen(pen);
      painter.setBrush(Qt::NoBrush);
      const QPointF centre(12, 12);
      for (int spoke = 0; spoke < 6; ++spoke) {
        const double angle = spoke * std::numbers::pi / 3.0;
        const QPointF tip = centre + QPointF(8.5 * std::cos(angle), 8.5 * std::sin(angle));
        painter.drawLine(centre, tip);
        const QPointF mid = centre + QPointF(5.0 * std::cos(angle), 5.0 * std::sin(angle));
        for (const double side : {-0.6, 0.6}) {
          painter.drawLine(mid, mid + QPointF(3.0 * std::cos(angle + side * 1.4),
                                              3.0 * std::sin(angle + side * 1.4)));
        }
      }
      break;
    }
  }
}

QPixmap render(MediaIcon kind, int size, const QColor& colour) {
  QPixmap pixmap(size, size);
  pixmap.fill(Qt::transparent);
  QPainter painter(&pixmap);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.scale(size / 24.0, size / 24.0);
  drawShape(painter, kind, colour);
  return pixmap;
}

}  // namespace

QIcon mediaIcon(MediaIcon kind) {
  QIcon icon;
  for (const int size : kSizes) {
    icon.addPixmap(render(kind, size, kNormal), QIcon::Normal);
    icon.addPixmap(render(kind, size, kDisabled), QIcon::Disabled);
  }
  return icon;
}

}  // namespace cineflow::ui

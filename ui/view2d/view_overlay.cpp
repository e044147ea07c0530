#include "view2d/view_overlay.hpp"

#include <algorithm>
#include <cmath>

#include <QFont>
#include <QFontMetrics>
#include <QObject>
#include <QPainter>

#include "common/display_geometry.hpp"

namespace cineflow::ui {
namespace {

constexpr double kMinTickSpacingPx = 36.0;  // keeps depth labels from touching
constexpr int kMajorTickPx = 6;
constexpr int kMinorTickPx = 3;
constexpr int kScaleBarHeightPx = 4;

QString millimetres(double metres, double stepM) {
  // As many decimals as the step needs: 10 mm steps show "20", 0.5 mm steps "20.5".
  const int decimals = stepM >= 0.999e-3 ? 0 : (stepM >= 0.0999e-3 ? 1 : 2);
  return QString::number(metres * 1e3, 'f', decimals);
}

// Calls draw(positionPx, valueM, major) for every tick of a 1-2-5 step (minor ticks halfway)
// between the two ends of an axis spanning `lengthPx` pixels.
template <typename Draw>
void forEachTick(double firstM, double lastM, double lengthPx, Draw draw) {
  const double spanM = lastM - firstM;
  if (!(spanM > 0.0) || !(lengthPx > 0.0)) {
    return;
  }
  const double stepM = niceStep(kMinTickSpacingPx * spanM / lengthPx);
  const double halfM = 0.5 * stepM;
  for (double index = std::ceil(firstM / halfM); index * halfM <= lastM + 1e-12; index += 1.0) {
    const double valueM = index * halfM;
    const bool major = std::fmod(std::abs(index), 2.0) < 0.5;
    draw((valueM - firstM) / spanM * lengthPx, valueM, major, stepM);
  }
}

}  // namespace

ScaleBar scaleBarFor(const OverlayLayout& layout) {
  ScaleBar scaleBar;
  const double widthM = layout.xRightM - layout.xLeftM;
  if (layout.image.isEmpty() || !(widthM > 0.0)) {
    return scaleBar;
  }
  scaleBar.lengthM = niceStep(0.2 * widthM);
  if (scaleBar.lengthM > widthM) {
    scaleBar.lengthM = niceStep(0.1 * widthM);
  }
  const int lengthPx =
      std::max(1, static_cast<int>(std::lround(scaleBar.lengthM / widthM * layout.image.width())));
  const int right = static_cast<int>(std::floor(layout.image.right()));
  const int top = static_cast<int>(std::ceil(layout.image.bottom())) + 12;
  scaleBar.bar = QRect(right - lengthPx + 1, top, lengthPx, kScaleBarHeightPx);
  scaleBar.label = millimetres(scaleBar.lengthM, scaleBar.lengthM) + QStringLiteral(" mm");
  return scaleBar;
}

QString formatReadout(double xM, double zM, double db) {
  return QStringLiteral("x %1 mm   z %2 mm   %3 dB")
      .arg(xM * 1e3, 0, 'f', 2)
      .arg(zM * 1e3, 0, 'f', 2)
      .arg(db, 0, 'f', 1);
}

void paintOverlay(QPainter& painter, const OverlayLayout& layout, const QString& readout,
                  bool rulers) {
  if (layout.image.isEmpty()) {
    return;
  }
  painter.save();
  painter.setRenderHint(QPainter::Antialiasing, false);
  painter.setRenderHint(QPainter::TextAntialiasing, true);
  QFont font = painter.font();
  font.setPointSizeF(font.pointSizeF() * 0.85);
  painter.setFont(font);
  const QFontMetrics metrics(font);
  const QColor text = QColor::fromRgb(kOverlayTextColour);
  painter.setPen(text);
  const QRectF& image = layout.image;
  const int left = static_cast<int>(std::floor(image.left()));
  const int top = static_cast<int>(std::floor(image.top()));

  // Depth ruler: ticks into the left margin, labels right-aligned against them.
  if (rulers) {
    forEachTick(
        layout.zTopM, layout.zBottomM, image.height(),
        [&](double offsetPx, double zM, bool major, double stepM) {
          const int y = static_cast<int>(std::lround(image.top() + offsetPx));
          painter.drawLine(left - 1, y, left - 1 - (major ? kMajorTickPx : kMinorTickPx), y);
          if (major) {
            const QRect box(0, y - metrics.height() / 2, left - kMajorTickPx - 4, metrics.height());
            painter.drawText(box, Qt::AlignRight | Qt::AlignVCenter, millimetres(zM, stepM));
          }
        });
    // Lateral ticks: into the top margin, labels centred above them.
    forEachTick(layout.xLeftM, layout.xRightM, image.width(),
                [&](double offsetPx, double xM, bool major, double stepM) {
                  const int x = static_cast<int>(std::lround(image.left() + offsetPx));
                  painter.drawLine(x, top - 1, x, top - 1 - (major ? kMajorTickPx : kMinorTickPx));
                  if (major) {
                    const QRect box(x - 40, 0, 80, top - kMajorTickPx - 2);
                    painter.drawText(box, Qt::AlignHCenter | Qt::AlignBottom,
                                     millimetres(xM, stepM));
                  }
                });
    // The unit, once, in the corner where the two rulers meet, clear of the first lateral label
    // (centred on the image's left edge).
    const int unitRight = left - metrics.horizontalAdvance(QStringLiteral("-00.0")) / 2 - 6;
    painter.drawText(QRect(4, 0, std::max(0, unitRight - 4), top - kMajorTickPx - 2),
                     Qt::AlignRight | Qt::AlignBottom, QStringLiteral("mm"));
  }

  const ScaleBar scaleBar = scaleBarFor(layout);
  int readoutRight = static_cast<int>(std::ceil(image.right()));
  if (!scaleBar.bar.isEmpty()) {
    painter.fillRect(scaleBar.bar, QColor::fromRgb(kScaleBarColour));
    const QRect labelBox(scaleBar.bar.left() - 88, scaleBar.bar.center().y() - metrics.height(), 80,
                         2 * metrics.height());
    painter.drawText(labelBox, Qt::AlignRight | Qt::AlignVCenter, scaleBar.label);
    readoutRight = labelBox.right() - metrics.horizontalAdvance(scaleBar.label) - 8;
  }
  if (!readout.isEmpty()) {
    const int readoutLeft = 4;
    const QRect readoutBox(readoutLeft, static_cast<int>(std::ceil(image.bottom())) + 4,
                           std::max(0, readoutRight - readoutLeft),
                           (rulers ? kOverlayMargins : kCompactOverlayMargins).bottom() - 4);
    painter.drawText(readoutBox, Qt::AlignLeft | Qt::AlignVCenter,
                     metrics.elidedText(readout, Qt::ElideRight, readoutBox.width()));
  }
  painter.restore();
}

QRect frozenBadgeRect(const QSize& widgetSize, const QFont& font) {
  const QFontMetrics metrics(font);
  const QSize text = metrics.size(Qt::TextSingleLine, QObject::tr("FROZEN"));
  constexpr int kInset = 2;
  const QSize badge(text.width() + 2 * metrics.averageCharWidth(),
                    std::min(text.height() + 2, kOverlayMargins.top() - 2 * kInset));
  return QRect(QPoint(widgetSize.width() - badge.width() - kInset, kInset), badge);
}

void paintFrozenBadge(QPainter& painter, const QSize& widgetSize) {
  painter.save();
  QFont font = painter.font();
  font.setBold(true);
  painter.setFont(font);
  const QRect badge = frozenBadgeRect(widgetSize, font);
  painter.fillRect(badge, QColor(kFrozenBadgeColour));
  painter.setPen(QColor(Qt::white));
  painter.drawText(badge, Qt::AlignCenter, QObject::tr("FROZEN"));
  painter.restore();
}

}  // namespace cineflow::ui

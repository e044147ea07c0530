#pragma once
// The annotations drawn with QPainter over the B-mode image: a depth ruler along the image's left
// edge, lateral ticks along its top (labels in mm), a scale bar under its bottom-right corner and
// the cursor readout under its bottom-left corner. Everything goes in margins that ImageView keeps
// free around the image (kOverlayMargins), so the annotations never hide echoes.
//
// Widget (logical pixel) coordinates throughout; QPainter on a QOpenGLWidget scales them to the
// framebuffer.

#include <QtGui/qrgb.h>
#include <QMargins>
#include <QRect>
#include <QRectF>
#include <QString>

class QFont;
class QPainter;
class QSize;

namespace cineflow::ui {

// Room left around the image for the ruler labels (left), lateral labels (top) and the scale bar
// and readout (bottom).
inline constexpr QMargins kOverlayMargins{52, 24, 16, 28};
// A compact view's (a MIP panel's): no rulers, room under the image for the scale bar only.
inline constexpr QMargins kCompactOverlayMargins{4, 4, 4, 22};
// Light on the near-black margins of the dark theme.
inline constexpr QRgb kOverlayTextColour = qRgb(200, 202, 208);
inline constexpr QRgb kScaleBarColour = qRgb(235, 235, 235);
inline constexpr QRgb kFrozenBadgeColour = qRgb(40, 110, 200);

// What the overlay annotates: where the image is and which physical span it shows.
struct OverlayLayout {
  QRectF image;       // widget pixels
  double xLeftM = 0;  // lateral position of image.left() .. image.right()
  double xRightM = 0;
  double zTopM = 0;  // depth at image.top() .. image.bottom()
  double zBottomM = 0;
};

struct ScaleBar {
  QRect bar;  // the filled bar, widget pixels
  double lengthM = 0;
  QString label;  // e.g. "5 mm"
};

// A bar of a 1-2-5 length near a fifth of the image's width, right-aligned under the image.
ScaleBar scaleBarFor(const OverlayLayout& layout);

// "x 1.25 mm   z 20.05 mm   -31.4 dB"
QString formatReadout(double xM, double zM, double db);

// Draws ruler, ticks (unless `rulers` is false: a compact view), scale bar and (if not empty) the
// readout. Leaves the painter's state as it found it.
void paintOverlay(QPainter& painter, const OverlayLayout& layout, const QString& readout,
                  bool rulers = true);

// Where the "FROZEN" badge goes for a view of `widgetSize`: the widget's top-right corner, in the
// top margin, sized from `font`'s metrics.
QRect frozenBadgeRect(const QSize& widgetSize, const QFont& font);
// Draws the badge that tells a frozen view (reviewing the cineloop) from a live or stopped one.
void paintFrozenBadge(QPainter& painter, const QSize& widgetSize);

}  // namespace cineflow::ui

#pragma once
// Draws the line profile over the image: the segment itself (yellow, with end ticks), and a
// translucent plot of dB along it in the image's bottom-left corner with the peak and the -6 dB
// width marked and written out ("peak -4.2 dB at 3.10 mm · -6 dB width 0.58 mm").

#include <QPointF>
#include <QRectF>
#include <QString>

#include "view2d/line_profile.hpp"

class QPainter;

namespace cineflow::ui {

// "peak -4.2 dB at 3.10 mm · -6 dB width 0.58 mm" (width "n/a" when the profile does not fall
// 6 dB on both sides).
QString describeProfile(const LineProfile& profile);

// `from` and `to` in widget pixels; `image` the image's rectangle there. Leaves the painter's
// state as it found it. Returns the plot's rectangle.
QRectF paintLineProfile(QPainter& painter, const QRectF& image, QPointF from, QPointF to,
                        const LineProfile& profile);

}  // namespace cineflow::ui

#pragma once
// The colour bar of colour and power Doppler, drawn with QPainter in the image's top-right corner
// (on a dark, translucent plate) on screen and in exports: the velocity map from +v_a (towards the
// probe, top) to -v_a (bottom) labelled in m/s, the aliasing velocity stated beside it; or the
// power map labelled in dB above the threshold.

#include <QRectF>

#include "view2d/flow_display.hpp"

class QPainter;

namespace cineflow::ui {

// Where the bar's plate goes for an image drawn in `image` (widget or picture pixels).
QRectF flowColourBarRect(const QRectF& image);
// Draws it (nothing for FlowMap::Off). Leaves the painter's state as it found it.
void paintFlowColourBar(QPainter& painter, const QRectF& image, const FlowLook& look,
                        double aliasingVelocity);

}  // namespace cineflow::ui

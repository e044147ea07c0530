#pragma once
// Where an image of physical extent lands on screen: letterboxing that keeps the physical aspect
// ratio (lateral nx*dx against depth nz*dz) and the mapping from metres to pixels. Pure functions,
// so the views and the tests agree on exactly one definition.

#include <vector>

#include <QPointF>
#include <QRect>
#include <QSize>

#include "process/imaging_params.hpp"

namespace cineflow::ui {

// The largest rectangle with the image's physical aspect ratio that fits in `area`, centred.
// Depth increases downward. Empty when the geometry or the area is empty.
QRect letterboxRect(const process::ImageGeometry& geometry, QSize area);

// Maps a physical point (lateral x, depth z, metres) into `target` (the letterbox rectangle), as a
// continuous pixel coordinate: image pixel (i, k) covers [x0 + (i - 1/2) dx, x0 + (i + 1/2) dx) and
// likewise in depth, so its centre lands at the centre of the pixels it covers on screen.
QPointF mapPhysicalToRect(const process::ImageGeometry& geometry, const QRect& target, double xM,
                          double zM);

// A gain (the dB level shown as white) for a first look at an image: fully developed speckle at
// a little below mid-grey for the default 60 dB dynamic range, point targets and specular echoes
// (typically 20-30 dB above speckle) bright but not clipped. Taken from the median, which the few
// bright pixels cannot move, rounded up to a whole dB. Ignores non-finite values; 0 if none.
double suggestGainDb(const std::vector<float>& pixels);

}  // namespace cineflow::ui

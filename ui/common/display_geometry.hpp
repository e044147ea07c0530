#pragma once
// Where an image of physical extent lands on screen: letterboxing that keeps the physical aspect
// ratio (lateral nx*dx against depth nz*dz), zoom and pan, and the mapping between metres and
// pixels. Pure functions, so the views and the tests agree on exactly one definition.

#include <span>
#include <vector>

#include <QPointF>
#include <QRect>
#include <QRectF>
#include <QSize>

#include "process/image_geometry.hpp"

#include "process/image_geometry.hpp"

namespace cineflow::ui {

// A point of the image plane: lateral x and depth z, metres.
struct PhysicalPoint {
  double xM = 0.0;
  double zM = 0.0;
};

// The part of the image a view shows: `zoom` (1 = the whole image) and the top-left corner of the
// visible part in normalised image coordinates (u across, v down; 0 at the image's outer edge,
// 1 at the opposite one). The visible part is 1/zoom wide and tall, so the aspect ratio is kept.
struct ViewWindow {
  static constexpr double kMinZoom = 1.0;
  static constexpr double kMaxZoom = 16.0;
  double zoom = 1.0;
  double u0 = 0.0;
  double v0 = 0.0;
  bool operator==(const ViewWindow&) const = default;
};

// The largest rectangle with the image's physical aspect ratio that fits in `area`, centred.
// Depth increases downward. Empty when the geometry or the area is empty.
QRect letterboxRect(const process::ImageGeometry& geometry, QSize area);
QRect letterboxRect(const process::ImageGeometry& geometry, const QRect& area);

// Maps a physical point (lateral x, depth z, metres) into `target` (the letterbox rectangle), as a
// continuous pixel coordinate: image pixel (i, k) covers [x0 + (i - 1/2) dx, x0 + (i + 1/2) dx) and
// likewise in depth, so its centre lands at the centre of the pixels it covers on screen.
QPointF mapPhysicalToRect(const process::ImageGeometry& geometry, const QRect& target, double xM,
                          double zM);

// The same through a zoomed and panned window; with the default window both agree exactly.
QPointF mapPhysicalToView(const process::ImageGeometry& geometry, const QRectF& target,
                          const ViewWindow& window, PhysicalPoint point);
// The inverse of mapPhysicalToView (points outside the image extrapolate).
PhysicalPoint mapViewToPhysical(const process::ImageGeometry& geometry, const QRectF& target,
                                const ViewWindow& window, QPointF pixel);

// Zoom clamped to [kMinZoom, kMaxZoom] and the corner moved so the window stays inside the image.
ViewWindow clampWindow(ViewWindow window);
// Changes the zoom keeping the image point under `anchor` (a pixel of `target`) where it is
// (as far as the image edges allow).
ViewWindow zoomedAbout(const ViewWindow& window, const QRectF& target, double zoom, QPointF anchor);
// Moves the image by `delta` pixels (as a drag would), as far as the image edges allow.
ViewWindow pannedBy(const ViewWindow& window, const QRectF& target, QPointF delta);

// The smallest step of the 1-2-5 series (..., 0.5, 1, 2, 5, 10, ...) that is at least `minimum`.
double niceStep(double minimum);

// A gain (the dB level shown as white) for a first look at an image: fully developed speckle at
// a little below mid-grey for the default 60 dB dynamic range, point targets and specular echoes
// (typically 20-30 dB above speckle) bright but not clipped. Taken from the median, which the few
// bright pixels cannot move, rounded up to a whole dB; a few targets in an empty field (the
// brightest over 70 dB above the median, as a noise-free point-target source) get their brightest
// echo at white instead. Ignores non-finite values; 0 if none.
// `pixels` are the intensity values only: an image with flow layers (colour and power Doppler)
// passes its first layer (intensityLayer), whose level the flow's threshold is set against.
double suggestGainDb(std::span<const float> pixels);
// The intensity layer of an image's pixels laid out as `geometry`: the first geometry.pixels()
// values (all of them when there are fewer).
std::span<const float> intensityLayer(const std::vector<float>& pixels,
                                      const process::ImageGeometry& geometry);

}  // namespace cineflow::ui

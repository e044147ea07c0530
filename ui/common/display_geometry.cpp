#include "common/display_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <vector>

namespace cineflow::ui {
namespace {

// With a 60 dB dynamic range this puts the speckle median at grey 25/60 = 0.42, and echoes 25 dB
// above it at 0.83.
constexpr double kSpeckleMedianBelowWhiteDb = 35.0;
// A brightest echo this far above the median is no speckle scene but a few targets in an empty
// field (a noise-free point-target source: 144 dB above its median): its brightest echo is white.
// Speckle scenes stay well under it (the simulator 19 dB, the rotating disk 31, Field II's
// points in speckle 59, the OCT simulator 40).
constexpr double kSparsePeakAboveMedianDb = 70.0;

double imageLeftM(const process::ImageGeometry& geometry) {
  return geometry.x0 - 0.5 * geometry.dx;
}

double imageTopM(const process::ImageGeometry& geometry) {
  return geometry.z0 - 0.5 * geometry.dz;
}

}  // namespace

QRect letterboxRect(const process::ImageGeometry& geometry, QSize area) {
  const double widthM = geometry.nx * geometry.dx;
  const double heightM = geometry.nz * geometry.dz;
  if (widthM <= 0 || heightM <= 0 || area.isEmpty()) {
    return {};
  }
  const double scale = std::min(area.width() / widthM, area.height() / heightM);
  const int width = std::clamp(static_cast<int>(std::lround(widthM * scale)), 1, area.width());
  const int height = std::clamp(static_cast<int>(std::lround(heightM * scale)), 1, area.height());
  return {(area.width() - width) / 2, (area.height() - height) / 2, width, height};
}

QRect letterboxRect(const process::ImageGeometry& geometry, const QRect& area) {
  const QRect inside = letterboxRect(geometry, area.size());
  return inside.isEmpty() ? inside : inside.translated(area.topLeft());
}

QPointF mapPhysicalToRect(const process::ImageGeometry& geometry, const QRect& target, double xM,
                          double zM) {
  return mapPhysicalToView(geometry, target, ViewWindow{}, {xM, zM});
}

QPointF mapPhysicalToView(const process::ImageGeometry& geometry, const QRectF& target,
                          const ViewWindow& window, PhysicalPoint point) {
  const double u = (point.xM - imageLeftM(geometry)) / (geometry.nx * geometry.dx);
  const double v = (point.zM - imageTopM(geometry)) / (geometry.nz * geometry.dz);
  return {target.x() + (u - window.u0) * window.zoom * target.width(),
          target.y() + (v - window.v0) * window.zoom * target.height()};
}

PhysicalPoint mapViewToPhysical(const process::ImageGeometry& geometry, const QRectF& target,
                                const ViewWindow& window, QPointF pixel) {
  const double u = window.u0 + (pixel.x() - target.x()) / (window.zoom * target.width());
  const double v = window.v0 + (pixel.y() - target.y()) / (window.zoom * target.height());
  return {imageLeftM(geometry) + u * geometry.nx * geometry.dx,
          imageTopM(geometry) + v * geometry.nz * geometry.dz};
}

ViewWindow clampWindow(ViewWindow window) {
  window.zoom = std::clamp(window.zoom, ViewWindow::kMinZoom, ViewWindow::kMaxZoom);
  const double last = 1.0 - 1.0 / window.zoom;
  window.u0 = std::clamp(window.u0, 0.0, last);
  window.v0 = std::clamp(window.v0, 0.0, last);
  return window;
}

ViewWindow zoomedAbout(const ViewWindow& window, const QRectF& target, double zoom,
                       QPointF anchor) {
  if (target.isEmpty()) {
    return window;
  }
  zoom = std::clamp(zoom, ViewWindow::kMinZoom, ViewWindow::kMaxZoom);
  const double fx = (anchor.x() - target.x()) / target.width();
  const double fy = (anchor.y() - target.y()) / target.height();
  // The anchored image point (u0 + fx / zoom) stays at the same fraction of the target.
  ViewWindow next = window;
  next.u0 = window.u0 + fx / window.zoom - fx / zoom;
  next.v0 = window.v0 + fy / window.zoom - fy / zoom;
  next.zoom = zoom;
  return clampWindow(next);
}

ViewWindow pannedBy(const ViewWindow& window, const QRectF& target, QPointF delta) {
  if (target.isEmpty()) {
    return window;
  }
  ViewWindow next = window;
  next.u0 -= delta.x() / (window.zoom * target.width());
  next.v0 -= delta.y() / (window.zoom * target.height());
  return clampWindow(next);
}

double niceStep(double minimum) {
  if (!(minimum > 0.0) || !std::isfinite(minimum)) {
    return 1.0;
  }
  const double decade = std::pow(10.0, std::floor(std::log10(minimum)));
  for (const double mantissa : {1.0, 2.0, 5.0, 10.0}) {
    // A little slack so that exact decades (0.001 computed as 0.0009999...) are not skipped.
    if (mantissa * decade >= minimum * (1.0 - 1e-9)) {
      return mantissa * decade;
    }
  }
  return 10.0 * decade;
}

std::span<const float> intensityLayer(const std::vector<float>& pixels,
                                      const process::ImageGeometry& geometry) {
  return std::span<const float>(pixels).first(std::min(pixels.size(), geometry.pixels()));
}

double suggestGainDb(std::span<const float> pixels) {
  // A copy once per session (first frame), so nth_element may reorder it.
  std::vector<float> finite;
  finite.reserve(pixels.size());
  std::copy_if(pixels.begin(), pixels.end(), std::back_inserter(finite),
               [](float value) { return std::isfinite(value); });
  if (finite.empty()) {
    return 0.0;
  }
  const auto middle = finite.begin() + static_cast<std::ptrdiff_t>(finite.size() / 2);
  std::nth_element(finite.begin(), middle, finite.end());
  const double median = *middle;
  const double peak = *std::max_element(middle, finite.end());
  return std::ceil(peak - median > kSparsePeakAboveMedianDb ? peak
                                                            : median + kSpeckleMedianBelowWhiteDb);
}

}  // namespace cineflow::ui

#include "display_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <vector>

namespace cineflow::ui {
namespace {

// With a 60 dB dynamic range this puts the speckle median at grey 25/60 = 0.42, and echoes 25 dB
// above it at 0.83.
constexpr double kSpeckleMedianBelowWhiteDb = 35.0;

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

QPointF mapPhysicalToRect(const process::ImageGeometry& geometry, const QRect& target, double xM,
                          double zM) {
  const double left = geometry.x0 - 0.5 * geometry.dx;
  const double top = geometry.z0 - 0.5 * geometry.dz;
  const double u = (xM - left) / (geometry.nx * geometry.dx);
  const double v = (zM - top) / (geometry.nz * geometry.dz);
  return {target.x() + u * target.width(), target.y() + v * target.height()};
}

double suggestGainDb(const std::vector<float>& pixels) {
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
  return std::ceil(static_cast<double>(*middle) + kSpeckleMedianBelowWhiteDb);
}

}  // namespace cineflow::ui

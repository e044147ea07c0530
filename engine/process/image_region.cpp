#include "process/image_region.hpp"

#include <algorithm>
#include <cmath>

namespace cineflow::process {

PixelBox pixelBox(const ColourBox& box, const ImageGeometry& geometry) {
  if (box.empty()) {
    return {0, geometry.nx, 0, geometry.nz};
  }
  if (!(geometry.dx > 0) || !(geometry.dz > 0)) {
    return {};
  }
  // First pixel whose centre is >= the lower edge, first whose centre is > the upper edge.
  const auto first = [](double edge, double origin, double step, int n) {
    return static_cast<int>(std::clamp(std::ceil((edge - origin) / step - 1e-9), 0.0, double(n)));
  };
  const auto past = [](double edge, double origin, double step, int n) {
    return static_cast<int>(
        std::clamp(std::floor((edge - origin) / step + 1e-9) + 1.0, 0.0, double(n)));
  };
  PixelBox p;
  p.ix0 = first(box.x0, geometry.x0, geometry.dx, geometry.nx);
  p.ix1 = past(box.x1, geometry.x0, geometry.dx, geometry.nx);
  p.iz0 = first(box.z0, geometry.z0, geometry.dz, geometry.nz);
  p.iz1 = past(box.z1, geometry.z0, geometry.dz, geometry.nz);
  if (p.empty()) {
    return {};
  }
  return p;
}

}  // namespace cineflow::process

#pragma once
// The image every modality's chain produces and every view, store and projection consumes:
// float32 [z][x], row-major, pixel (i, k) centred at lateral x0 + i*dx and depth z0 + k*dz
// (metres; for OCT, depth is the optical path in the sample as its modality scales it).

#include <cstddef>

namespace cineflow::process {

struct ImageGeometry {
  int nx = 0, nz = 0;
  double x0 = 0, dx = 0, z0 = 0, dz = 0;  // metres
  std::size_t pixels() const { return static_cast<std::size_t>(nx) * static_cast<std::size_t>(nz); }
  bool operator==(const ImageGeometry&) const = default;
};

}  // namespace cineflow::process

#pragma once
// One brick's largest value (process/volume_bricks.hpp), on the CPU and on the GPU alike: the
// CPU loops over bricks calling it, the CUDA kernel runs it once per thread.

#include "process/cuda/device_code.hpp"
#include "process/cuda/mip_max.hpp"

namespace cineflow::process::cuda {

inline constexpr int kBrickVoxels = 8;

CINEFLOW_HD inline int bricksAlong(int voxels) {
  return (voxels + kBrickVoxels - 1) / kBrickVoxels;
}

// The largest value of volume [ny][nz][nx] over brick (bx, bz, by)'s voxels and one more on each
// side (clamped to the volume): what trilinear sampling anywhere inside the brick reads. -inf for
// a brick whose voxels are all NaN.
CINEFLOW_HD inline float brickMaximum(const float* volume, int ny, int nz, int nx, int bx, int bz,
                                      int by) {
  const int x0 = bx * kBrickVoxels - 1 < 0 ? 0 : bx * kBrickVoxels - 1;
  const int z0 = bz * kBrickVoxels - 1 < 0 ? 0 : bz * kBrickVoxels - 1;
  const int y0 = by * kBrickVoxels - 1 < 0 ? 0 : by * kBrickVoxels - 1;
  const int x1 = (bx + 1) * kBrickVoxels < nx - 1 ? (bx + 1) * kBrickVoxels : nx - 1;
  const int z1 = (bz + 1) * kBrickVoxels < nz - 1 ? (bz + 1) * kBrickVoxels : nz - 1;
  const int y1 = (by + 1) * kBrickVoxels < ny - 1 ? (by + 1) * kBrickVoxels : ny - 1;
  float best = -__builtin_huge_valf();
  for (int y = y0; y <= y1; ++y) {
    for (int z = z0; z <= z1; ++z) {
      const float* row = volume + (static_cast<long long>(y) * nz + z) * nx;
      for (int x = x0; x <= x1; ++x) {
        best = mipMax(best, loadReadOnly(row + x));
      }
    }
  }
  return best;
}

}  // namespace cineflow::process::cuda

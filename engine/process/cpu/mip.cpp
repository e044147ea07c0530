#include "process/cpu/mip.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "compute/cpu/parallel_for.hpp"

namespace cineflow::process::cpu {

void enqueueMips(compute::Stream& stream, const float* volume, int ny, int nz, int nx,
                 float* alongY, float* alongZ, float* alongX) {
  stream.enqueueHost([=] { mips(volume, ny, nz, nx, alongY, alongZ, alongX); });
}

void mips(const float* volume, int ny, int nz, int nx, float* alongY, float* alongZ,
          float* alongX) {
  const auto xs = static_cast<std::size_t>(nx);
  const std::size_t slice = static_cast<std::size_t>(nz) * xs;
  // Along y: one pass over the slices per chunk of pixels.
  auto throughSlab = [&](std::size_t begin, std::size_t end) {
    std::copy(volume + begin, volume + end, alongY + begin);
    for (int y = 1; y < ny; ++y) {
      const float* source = volume + static_cast<std::size_t>(y) * slice;
      for (std::size_t i = begin; i < end; ++i) {
        alongY[i] = std::fmax(alongY[i], source[i]);
      }
    }
  };
  compute::cpu::parallelFor(slice, 8192, throughSlab);
  // Along z and along x: one slice per task, rows read in order.
  auto perSlice = [&](std::size_t yBegin, std::size_t yEnd) {
    for (std::size_t y = yBegin; y < yEnd; ++y) {
      const float* plane = volume + y * slice;
      float* enFace = alongZ + y * xs;
      std::copy(plane, plane + xs, enFace);
      for (int z = 0; z < nz; ++z) {
        const float* row = plane + static_cast<std::size_t>(z) * xs;
        if (z > 0) {
          for (std::size_t x = 0; x < xs; ++x) {
            enFace[x] = std::fmax(enFace[x], row[x]);
          }
        }
        float rowMax = row[0];
        for (std::size_t x = 1; x < xs; ++x) {
          rowMax = std::fmax(rowMax, row[x]);
        }
        alongX[y * static_cast<std::size_t>(nz) + static_cast<std::size_t>(z)] = rowMax;
      }
    }
  };
  compute::cpu::parallelFor(static_cast<std::size_t>(ny), 1, perSlice);
}

}  // namespace cineflow::process::cpu

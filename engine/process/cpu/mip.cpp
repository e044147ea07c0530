#include "process/cpu/mip.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "compute/cpu/parallel_for.hpp"
#include "process/cuda/mip_max.hpp"

namespace cineflow::process::cpu {
namespace {

using cuda::mipMax;

// The maximum (mipMax) of row[0, n), n > 0, over 16 independent lanes so that the reduction
// vectorises.
float rowMaximum(const float* row, std::size_t n) {
  constexpr std::size_t kLanes = 16;
  if (n < kLanes) {
    float m = row[0];
    for (std::size_t x = 1; x < n; ++x) {
      m = mipMax(m, row[x]);
    }
    return m;
  }
  float lanes[kLanes];
  std::copy(row, row + kLanes, lanes);
  std::size_t x = kLanes;
  for (; x + kLanes <= n; x += kLanes) {
    for (std::size_t l = 0; l < kLanes; ++l) {
      lanes[l] = mipMax(lanes[l], row[x + l]);
    }
  }
  float m = lanes[0];
  for (std::size_t l = 1; l < kLanes; ++l) {
    m = mipMax(m, lanes[l]);
  }
  for (; x < n; ++x) {
    m = mipMax(m, row[x]);
  }
  return m;
}

}  // namespace

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
        alongY[i] = mipMax(alongY[i], source[i]);
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
            enFace[x] = mipMax(enFace[x], row[x]);
          }
        }
        alongX[y * static_cast<std::size_t>(nz) + static_cast<std::size_t>(z)] =
            rowMaximum(row, xs);
      }
    }
  };
  compute::cpu::parallelFor(static_cast<std::size_t>(ny), 1, perSlice);
}

int mipBands(int nz) {
  return static_cast<int>(
      std::min(compute::cpu::parallelism(), static_cast<std::size_t>(std::max(nz, 1))));
}

std::size_t mipBandScratchFloats(int ny, int nz, int nx) {
  return static_cast<std::size_t>(mipBands(nz)) * static_cast<std::size_t>(ny) *
         static_cast<std::size_t>(nx);
}

void mipsOnePass(const float* volume, int ny, int nz, int nx, float* bandScratch, float* alongY,
                 float* alongZ, float* alongX) {
  const auto xs = static_cast<std::size_t>(nx);
  const auto zs = static_cast<std::size_t>(nz);
  const std::size_t slice = zs * xs;
  const std::size_t plane = static_cast<std::size_t>(ny) * xs;
  const auto bands = static_cast<std::size_t>(mipBands(nz));
  // Band b: depth rows [b nz / bands, (b + 1) nz / bands) of every slice. Its rows of alongY and
  // its entries of alongX are its own; its maxima along z go to its plane of the scratch.
  auto band = [&](std::size_t b) {
    const std::size_t zBegin = b * zs / bands;
    const std::size_t zEnd = (b + 1) * zs / bands;
    float* partial = bandScratch + b * plane;
    for (std::size_t y = 0; y < static_cast<std::size_t>(ny); ++y) {
      const float* plane0 = volume + y * slice;
      float* enFace = partial + y * xs;
      std::copy(plane0 + zBegin * xs, plane0 + (zBegin + 1) * xs, enFace);
      for (std::size_t z = zBegin; z < zEnd; ++z) {
        const float* row = plane0 + z * xs;
        float* throughSlab = alongY + z * xs;
        if (y == 0) {
          std::copy(row, row + xs, throughSlab);
        } else {
          for (std::size_t x = 0; x < xs; ++x) {
            throughSlab[x] = mipMax(throughSlab[x], row[x]);
          }
        }
        if (z > zBegin) {
          for (std::size_t x = 0; x < xs; ++x) {
            enFace[x] = mipMax(enFace[x], row[x]);
          }
        }
        alongX[y * zs + z] = rowMaximum(row, xs);
      }
    }
  };
  auto bandRange = [&](std::size_t begin, std::size_t end) {
    for (std::size_t b = begin; b < end; ++b) {
      band(b);
    }
  };
  compute::cpu::parallelFor(bands, 1, bandRange);
  // The bands' maxima along z meet in band order, so equal maxima keep the shallowest, as the
  // two-pass variant's do.
  auto meet = [&](std::size_t begin, std::size_t end) {
    std::copy(bandScratch + begin, bandScratch + end, alongZ + begin);
    for (std::size_t b = 1; b < bands; ++b) {
      const float* partial = bandScratch + b * plane;
      for (std::size_t i = begin; i < end; ++i) {
        alongZ[i] = mipMax(alongZ[i], partial[i]);
      }
    }
  };
  compute::cpu::parallelFor(plane, 8192, meet);
}

}  // namespace cineflow::process::cpu

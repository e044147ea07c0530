#pragma once
// One flow estimate as the CPU twin and the CUDA kernels run it (ultrasound/flow_estimator.hpp
// holds the stage's contract): plain values and backend pointers, passed by value to a kernel or
// captured by a host task. Internal to the flow estimator.

#include <cstddef>

#include "process/cuda/device_code.hpp"
#include "ultrasound/doppler_math.hpp"
#include "ultrasound/doppler_params.hpp"

namespace cineflow::ultrasound {

struct FlowLaunch {
  const float2* ring = nullptr;  // [n][nz][nx] complex: the ensemble, the oldest in slot `oldest`
  int n = 0;
  int oldest = 0;
  int nx = 0, nz = 0;
  process::PixelBox box;  // where flow is estimated
  ClutterFilter filter;
  int averageX = 1, averageZ = 1;
  float aliasingVelocity = 0;  // m/s
  float4* acf = nullptr;       // [nz][nx]: (R0, Re R1, Im R1, -) of each box pixel
  float* estimate = nullptr;   // [3][nz][nx]: velocity, variance, power (box pixels only)
  CINEFLOW_HD std::size_t framePixels() const { return static_cast<std::size_t>(nx) * nz; }
  CINEFLOW_HD std::size_t boxPixels() const {
    return static_cast<std::size_t>(box.ix1 - box.ix0) *
           static_cast<std::size_t>(box.iz1 - box.iz0);
  }
};

// Box pixel `i` (row-major over the box) as an image pixel index, and its column and row.
CINEFLOW_HD inline std::size_t boxPixelIndex(const FlowLaunch& f, std::size_t i, int& ix, int& iz) {
  const auto width = static_cast<std::size_t>(f.box.ix1 - f.box.ix0);
  ix = f.box.ix0 + static_cast<int>(i % width);
  iz = f.box.iz0 + static_cast<int>(i / width);
  return static_cast<std::size_t>(iz) * f.nx + ix;
}

// The first pass over box pixel `i`: its filtered ensemble's autocorrelation into f.acf.
CINEFLOW_HD inline void flowAutocorrelationPixel(const FlowLaunch& f, std::size_t i,
                                                 float2* scratch) {
  int ix = 0, iz = 0;
  const std::size_t pixel = boxPixelIndex(f, i, ix, iz);
  const Autocorrelation a =
      ensembleAutocorrelation(f.ring, f.framePixels(), pixel, f.n, f.oldest, f.filter, scratch);
  f.acf[pixel] = make_float4(a.r0, a.r1.x, a.r1.y, 0.0f);
}

// The second pass: the averaged autocorrelation's velocity, variance and power into f.estimate.
CINEFLOW_HD inline void flowEstimatePixel(const FlowLaunch& f, std::size_t i) {
  int ix = 0, iz = 0;
  const std::size_t pixel = boxPixelIndex(f, i, ix, iz);
  const Autocorrelation a = averagedAutocorrelation(f.acf, f.nx, ix, iz, f.box.ix0, f.box.ix1,
                                                    f.box.iz0, f.box.iz1, f.averageX, f.averageZ);
  const DopplerEstimate e = estimateDoppler(a, f.aliasingVelocity);
  const std::size_t layer = f.framePixels();
  f.estimate[pixel] = e.velocity;
  f.estimate[layer + pixel] = e.variance;
  f.estimate[2 * layer + pixel] = e.powerDb;
}

// The SVD filter's correlation matrix: adds box pixel i's x x^H (x its time-ordered ensemble) to
// `correlation` (n x n complex, interleaved, row-major) in double.
CINEFLOW_HD inline void addPixelCorrelation(const FlowLaunch& f, std::size_t i, double* correlation,
                                            float2* scratch) {
  int ix = 0, iz = 0;
  const std::size_t pixel = boxPixelIndex(f, i, ix, iz);
  const std::size_t framePixels = f.framePixels();
  for (int k = 0; k < f.n; ++k) {
    scratch[k] = f.ring[static_cast<std::size_t>((f.oldest + k) % f.n) * framePixels + pixel];
  }
  for (int r = 0; r < f.n; ++r) {
    for (int c = 0; c < f.n; ++c) {
      // x_r conj(x_c)
      const double re = double(scratch[r].x) * scratch[c].x + double(scratch[r].y) * scratch[c].y;
      const double im = double(scratch[r].y) * scratch[c].x - double(scratch[r].x) * scratch[c].y;
      correlation[2 * (r * f.n + c)] += re;
      correlation[2 * (r * f.n + c) + 1] += im;
    }
  }
}

}  // namespace cineflow::ultrasound

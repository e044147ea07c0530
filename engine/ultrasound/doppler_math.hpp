#pragma once
// Colour and power Doppler per pixel (issue 20): what one pixel's ensemble of N beamformed I/Q
// samples, taken at the pulse repetition frequency, says about the blood (or the disk) there.
// Device code that is also host code (process/cuda/device_code.hpp): the CPU twin and the CUDA
// kernels run these very functions, and tests check them on the host in every build.
//
//   clutter filter   polynomial regression of order p (0..3): the ensemble minus its projection
//                    onto the first p + 1 orthonormal polynomials over the slow time (the tissue's
//                    slow motion), regressionBasis() below
//   R0, R1           lag-0 power and lag-1 autocorrelation: R0 = (1/N) sum |x_n|^2,
//                    R1 = (1/(N-1)) sum conj(x_n) x_(n+1)
//   velocity         Kasai: v = -v_Nyquist arg(R1) / pi, v_Nyquist = c PRF / (4 f0); positive
//                    towards the probe with the demodulation's exp(-j 2 pi f0 t) (as PyMUST's)
//   variance         2 (v_Nyquist / pi)^2 (1 - |R1| / R0) (m^2/s^2)
//   power            10 log10 R0 (dB)

#include <cmath>
#include <cstddef>
#include <vector>

#include "process/cuda/device_code.hpp"

namespace cineflow::process {

inline constexpr int kMaxRegressionOrder = 3;

// The orthonormal basis (Gram-Schmidt of 1, n, n^2, n^3 over n = 0..N-1, in double, stored as
// float) of the regression clutter filter of `order` (0..3): [order + 1][n]. Empty for order < 0
// (no filter). Throws std::invalid_argument for order > 3 or n <= order + 1 (nothing would
// remain).
std::vector<float> regressionBasis(int n, int order);

struct Autocorrelation {
  float r0 = 0;     // mean power
  float2 r1{0, 0};  // lag-one autocorrelation
};

// x[k * stride], k = 0..n-1, minus its projection onto the `rows` basis rows ([rows][n]), into
// out[k] (out may be x only when stride is 1).
CINEFLOW_HD inline void regressionFilter(const float2* x, std::size_t stride, int n,
                                         const float* basis, int rows, float2* out) {
  for (int k = 0; k < n; ++k) {
    out[k] = x[static_cast<std::size_t>(k) * stride];
  }
  for (int r = 0; r < rows; ++r) {
    const float* b = basis + static_cast<std::size_t>(r) * static_cast<std::size_t>(n);
    float re = 0, im = 0;
    for (int k = 0; k < n; ++k) {
      re += b[k] * out[k].x;
      im += b[k] * out[k].y;
    }
    for (int k = 0; k < n; ++k) {
      out[k].x -= re * b[k];
      out[k].y -= im * b[k];
    }
  }
}

CINEFLOW_HD inline Autocorrelation autocorrelate(const float2* x, int n) {
  Autocorrelation a;
  double r0 = 0, re = 0, im = 0;
  for (int k = 0; k < n; ++k) {
    r0 += static_cast<double>(x[k].x) * x[k].x + static_cast<double>(x[k].y) * x[k].y;
    if (k + 1 < n) {
      // conj(x_k) x_(k+1)
      re += static_cast<double>(x[k].x) * x[k + 1].x + static_cast<double>(x[k].y) * x[k + 1].y;
      im += static_cast<double>(x[k].x) * x[k + 1].y - static_cast<double>(x[k].y) * x[k + 1].x;
    }
  }
  a.r0 = static_cast<float>(r0 / n);
  if (n > 1) {
    a.r1 = make_float2(static_cast<float>(re / (n - 1)), static_cast<float>(im / (n - 1)));
  }
  return a;
}

struct DopplerEstimate {
  float velocity = 0;  // m/s, positive towards the probe
  float variance = 0;  // m^2/s^2
  float powerDb = 0;   // dB of the filtered ensemble's mean power
};

CINEFLOW_HD inline DopplerEstimate estimateDoppler(const Autocorrelation& a, float nyquistMps) {
  constexpr float kPi = 3.14159265358979f;
  DopplerEstimate e;
  e.velocity = -nyquistMps * atan2f(a.r1.y, a.r1.x) / kPi;
  const float magnitude = sqrtf(a.r1.x * a.r1.x + a.r1.y * a.r1.y);
  const float scale = nyquistMps / kPi;
  e.variance = a.r0 > 0 ? 2.0f * scale * scale * (1.0f - magnitude / a.r0) : 0.0f;
  e.powerDb = a.r0 > 0 ? 10.0f * log10f(a.r0) : -INFINITY;
  return e;
}

// c PRF / (4 f0): the velocity at which the phase between pulses reaches pi.
inline double nyquistVelocity(double soundSpeed, double prfHz, double f0Hz) {
  return soundSpeed * prfHz / (4.0 * f0Hz);
}

}  // namespace cineflow::process

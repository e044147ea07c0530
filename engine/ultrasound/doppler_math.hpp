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
//   velocity         Kasai: v = v_Nyquist arg(R1) / pi, v_Nyquist = c PRF / (4 f0); positive
//                    towards the probe: with the demodulation's exp(-j 2 pi f0 t), an echo
//                    that comes closer arrives earlier at each pulse, so its phase -2 pi f0 tau
//                    grows and arg(R1) > 0 (PyMUST's iq2doppler, which correlates x_n with
//                    conj(x_(n+1)) and negates, gives the same)
//   variance         2 (v_Nyquist / pi)^2 (1 - |R1| / R0) (m^2/s^2)
//   power            10 log10 R0 (dB)

#include <cmath>
#include <cstddef>
#include <vector>

#include "process/cuda/device_code.hpp"

namespace cineflow::ultrasound {

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

// Minus the projection onto `rows` real orthonormal vectors of length 2n ([rows][2n]) that embed
// a complex subspace: a vector x of the slow time is the real vector (Re x, Im x), and the
// subspace is closed under multiplication by j (the SVD clutter filter's singular vectors, found
// as eigenvectors of the real embedding of the ensemble's correlation matrix). In place.
CINEFLOW_HD inline void projectOutEmbedded(float2* x, int n, const float* basis, int rows) {
  for (int r = 0; r < rows; ++r) {
    const float* b = basis + static_cast<std::size_t>(r) * 2 * static_cast<std::size_t>(n);
    float c = 0;
    for (int k = 0; k < n; ++k) {
      c += b[k] * x[k].x + b[n + k] * x[k].y;
    }
    for (int k = 0; k < n; ++k) {
      x[k].x -= c * b[k];
      x[k].y -= c * b[n + k];
    }
  }
}

// A second-order IIR high-pass (direct form II transposed), y = (b0 + b1 z^-1 + b2 z^-2) /
// (1 + a1 z^-1 + a2 z^-2) x.
struct IirHighPass {
  float b0 = 1, b1 = 0, b2 = 0, a1 = 0, a2 = 0;
};
// The Butterworth high-pass of cut-off `cutoff` x the sampling rate (0 < cutoff < 0.5), by the
// bilinear transform with the cut-off prewarped.
IirHighPass butterworthHighPass(double cutoff);
// The filter's states: its free responses span the transients an initial state can add.
inline constexpr int kIirStates = 2;
// Projection initialisation: the filter's output from rest minus its projection onto the
// responses of the filter to its initial states alone (no input), [kIirStates][n], orthonormal.
// That is the output of the initial state that leaves the least energy, so the ensemble's start
// leaves no transient and every output is kept (a step initialisation leaves one that a strong,
// slowly moving tissue turns into a bias).
std::vector<float> iirFreeResponseBasis(const IirHighPass& filter, int n);

// Filters x[0..n) with `f` from rest, into out[0..n) (out may be x).
CINEFLOW_HD inline void iirFilter(const float2* x, int n, const IirHighPass& f, float2* out) {
  float s1re = 0, s1im = 0, s2re = 0, s2im = 0;
  for (int k = 0; k < n; ++k) {
    const float ure = x[k].x;
    const float uim = x[k].y;
    const float yre = f.b0 * ure + s1re;
    const float yim = f.b0 * uim + s1im;
    s1re = f.b1 * ure - f.a1 * yre + s2re;
    s1im = f.b1 * uim - f.a1 * yim + s2im;
    s2re = f.b2 * ure - f.a2 * yre;
    s2im = f.b2 * uim - f.a2 * yim;
    out[k] = make_float2(yre, yim);
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
  e.velocity = nyquistMps * atan2f(a.r1.y, a.r1.x) / kPi;
  const float magnitude = sqrtf(a.r1.x * a.r1.x + a.r1.y * a.r1.y);
  const float scale = nyquistMps / kPi;
  e.variance = a.r0 > 0 ? 2.0f * scale * scale * (1.0f - magnitude / a.r0) : 0.0f;
  e.powerDb = a.r0 > 0 ? 10.0f * log10f(a.r0) : -INFINITY;
  return e;
}

enum class ClutterFilterKind : int { None = 0, Regression = 1, Iir = 2, Embedded = 3 };

// The clutter filter as a kernel's thread applies it: the regression's real basis ([rows][n]),
// the SVD's embedded basis ([rows][2n], projectOutEmbedded) or the IIR's coefficients with its
// free responses' basis ([kIirStates][n], iirFreeResponseBasis).
struct ClutterFilter {
  ClutterFilterKind kind = ClutterFilterKind::None;
  const float* basis = nullptr;  // device memory on the GPU
  int rows = 0;
  IirHighPass iir;
};

// Pixel `pixel`'s ensemble, gathered in time order from a ring of n frames of `framePixels`
// complex pixels (the oldest in slot `oldest`), clutter filtered in `scratch` (n values), and its
// lag-0 and lag-1 autocorrelation.
CINEFLOW_HD inline Autocorrelation ensembleAutocorrelation(const float2* ring,
                                                           std::size_t framePixels,
                                                           std::size_t pixel, int n, int oldest,
                                                           const ClutterFilter& filter,
                                                           float2* scratch) {
  for (int k = 0; k < n; ++k) {
    const int slot = (oldest + k) % n;
    scratch[k] = ring[static_cast<std::size_t>(slot) * framePixels + pixel];
  }
  switch (filter.kind) {
    case ClutterFilterKind::None:
      break;
    case ClutterFilterKind::Regression:
      regressionFilter(scratch, 1, n, filter.basis, filter.rows, scratch);
      break;
    case ClutterFilterKind::Iir:
      iirFilter(scratch, n, filter.iir, scratch);
      regressionFilter(scratch, 1, n, filter.basis, filter.rows, scratch);  // its transients
      break;
    case ClutterFilterKind::Embedded:
      projectOutEmbedded(scratch, n, filter.basis, filter.rows);
      break;
  }
  return autocorrelate(scratch, n);
}

// The mean of the autocorrelations in the window of averageX x averageZ pixels around (ix, iz),
// clipped to the box [ix0, ix1) x [iz0, iz1); `acf` holds (r0, Re r1, Im r1, -) per pixel of a
// row-major image `nx` wide.
CINEFLOW_HD inline Autocorrelation averagedAutocorrelation(const float4* acf, int nx, int ix,
                                                           int iz, int ix0, int ix1, int iz0,
                                                           int iz1, int averageX, int averageZ) {
  const int hx = averageX / 2;
  const int hz = averageZ / 2;
  float r0 = 0, re = 0, im = 0;
  int count = 0;
  for (int z = iz - hz; z <= iz + hz; ++z) {
    if (z < iz0 || z >= iz1) {
      continue;
    }
    for (int x = ix - hx; x <= ix + hx; ++x) {
      if (x < ix0 || x >= ix1) {
        continue;
      }
      const float4 a = acf[static_cast<std::size_t>(z) * nx + x];
      r0 += a.x;
      re += a.y;
      im += a.z;
      ++count;
    }
  }
  Autocorrelation out;
  if (count > 0) {
    out.r0 = r0 / count;
    out.r1 = make_float2(re / count, im / count);
  }
  return out;
}

// Eigenvalues and eigenvectors of the real symmetric m x m matrix `a` (row-major, destroyed) by
// cyclic Jacobi rotations until the off-diagonal is below 1e-12 of the matrix's norm (at most
// `maxSweeps` sweeps): the eigenvalues on a's diagonal, the eigenvectors in v's columns
// (row-major m x m). Single-threaded: the SVD clutter filter's N <= 128 keeps m = 2N small.
CINEFLOW_HD inline void symmetricEigen(double* a, double* v, int m, int maxSweeps) {
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < m; ++j) {
      v[i * m + j] = i == j ? 1.0 : 0.0;
    }
  }
  double total = 0;
  for (int i = 0; i < m * m; ++i) {
    total += a[i] * a[i];
  }
  for (int sweep = 0; sweep < maxSweeps; ++sweep) {
    double off = 0;
    for (int i = 0; i < m; ++i) {
      for (int j = i + 1; j < m; ++j) {
        off += a[i * m + j] * a[i * m + j];
      }
    }
    if (off <= 1e-24 * total) {
      return;
    }
    for (int p = 0; p < m; ++p) {
      for (int q = p + 1; q < m; ++q) {
        const double apq = a[p * m + q];
        if (apq == 0.0) {
          continue;
        }
        const double theta = (a[q * m + q] - a[p * m + p]) / (2.0 * apq);
        const double t = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
        const double c = 1.0 / sqrt(t * t + 1.0);
        const double s = t * c;
        for (int k = 0; k < m; ++k) {  // columns p and q
          const double akp = a[k * m + p];
          const double akq = a[k * m + q];
          a[k * m + p] = c * akp - s * akq;
          a[k * m + q] = s * akp + c * akq;
        }
        for (int k = 0; k < m; ++k) {  // rows p and q
          const double apk = a[p * m + k];
          const double aqk = a[q * m + k];
          a[p * m + k] = c * apk - s * aqk;
          a[q * m + k] = s * apk + c * aqk;
        }
        for (int k = 0; k < m; ++k) {
          const double vkp = v[k * m + p];
          const double vkq = v[k * m + q];
          v[k * m + p] = c * vkp - s * vkq;
          v[k * m + q] = s * vkp + c * vkq;
        }
      }
    }
  }
}

// From the ensemble's correlation matrix C = sum over pixels of x x^H (n x n complex, row-major,
// interleaved), the embedded basis ([2 rank][2n] floats, projectOutEmbedded) of the `rank`
// strongest singular components: the eigenvectors of the real embedding [[Re C, -Im C],
// [Im C, Re C]], whose eigenvalues come in pairs. `work` holds 2 (2n)^2 doubles.
CINEFLOW_HD inline void svdClutterBasis(const double* correlation, int n, int rank, double* work,
                                        float* basis) {
  const int m = 2 * n;
  double* a = work;
  double* v = work + static_cast<std::size_t>(m) * m;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const double re = correlation[2 * (i * n + j)];
      const double im = correlation[2 * (i * n + j) + 1];
      a[i * m + j] = re;
      a[i * m + n + j] = -im;
      a[(n + i) * m + j] = im;
      a[(n + i) * m + n + j] = re;
    }
  }
  symmetricEigen(a, v, m, 30);
  // The 2 rank largest eigenvalues' columns, largest first (selection by repeated maximum).
  for (int r = 0; r < 2 * rank; ++r) {
    int best = -1;
    for (int j = 0; j < m; ++j) {
      if (a[j * m + j] != -INFINITY && (best < 0 || a[j * m + j] > a[best * m + best])) {
        best = j;
      }
    }
    for (int k = 0; k < m; ++k) {
      basis[static_cast<std::size_t>(r) * m + k] = static_cast<float>(v[k * m + best]);
    }
    a[best * m + best] = -INFINITY;
  }
}

// c PRF / (4 f0): the velocity at which the phase between pulses reaches pi.
inline double nyquistVelocity(double soundSpeed, double prfHz, double f0Hz) {
  return soundSpeed * prfHz / (4.0 * f0Hz);
}

}  // namespace cineflow::ultrasound

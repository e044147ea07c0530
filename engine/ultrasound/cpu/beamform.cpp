#include "ultrasound/cpu/beamform.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <stdexcept>
#include <string>

#include "compute/cpu/parallel_for.hpp"
#include "ultrasound/cpu/isa.hpp"

namespace cineflow::process::cpu {
namespace {

// Pixels handled together: the per-pixel receive terms live in stack arrays of this length, so
// the stage needs no scratch memory and the arrays stay in L1.
constexpr std::size_t kBlock = 64;
// Transmits interpolated together: their sum is added to the image row once per group.
constexpr std::size_t kTransmitGroup = 4;

// One image row: the loops every variant compiles (inlined into each instruction set's function
// below).
[[gnu::always_inline]] inline void beamformRow(const DasGeometry& g_, std::size_t row,
                                               const float* rf, float* image) {
  const std::size_t nx = g_.pixelX.size();
  float* out = image + row * nx;
  std::fill(out, out + nx, 0.0f);
  const double z = g_.pixelZ[row];
  const double halfAperture = z * g_.halfApertureScale;
  if (!(halfAperture > 0)) {
    return;  // no receive aperture at the surface
  }
  const double inverseHalfAperture = 1.0 / halfAperture;
  const double z2 = z * z;
  const double lastSample = static_cast<double>(g_.samples - 1);
  const auto lastPair = static_cast<std::int32_t>(g_.samples) - 2;

  // Per block of pixels: the receive path once (loop A); then, for a group of transmits, the
  // sample positions (loop B1) and the interpolation (loop B2). A and B1 carry no loads from the
  // traces and vectorise; B2 is the gather, branch-free (positions outside [0, S-1] read a valid
  // pair with zero weight) and sums the group before touching the image row once.
  double receive[kBlock];  // receive path in samples, minus t0 * fs
  float apodisation[kBlock];
  std::int32_t index[kTransmitGroup][kBlock];
  float fraction[kTransmitGroup][kBlock];
  float inside[kTransmitGroup][kBlock];  // 1 where the position lies within [0, S-1], else 0
  for (std::size_t e = 0; e < g_.elements; ++e) {
    const double xe = g_.elementX[e];
    // The pixels with |x - xe| < h, exactly: keeping the test out of the pixel loops lets them
    // vectorise.
    const auto [begin, end] = g_.apertureRun(xe, halfAperture);
    for (std::size_t blockBegin = begin; blockBegin < end; blockBegin += kBlock) {
      const std::size_t count = std::min(kBlock, end - blockBegin);
      const double* x = g_.pixelX.data() + blockBegin;
      float* target = out + blockBegin;
      // A: std::sqrt vectorises here only where errno is not set by math (-fno-math-errno).
      for (std::size_t j = 0; j < count; ++j) {
        const double lateral = x[j] - xe;
        receive[j] = std::sqrt(lateral * lateral + z2) * g_.samplesPerMetre - g_.firstSample;
        apodisation[j] = static_cast<float>(g_.receiveWeight(lateral * inverseHalfAperture));
      }
      for (std::size_t group = 0; group < g_.transmits; group += kTransmitGroup) {
        const std::size_t groupSize = std::min(kTransmitGroup, g_.transmits - group);
        for (std::size_t g = 0; g < groupSize; ++g) {
          const double transmitDepth = z * g_.cosSamples[group + g];
          const double transmitLateral = g_.sinSamples[group + g];
          // B1: min / max and an equality test rather than branches or && so that it
          // vectorises; s == clamped exactly when s lies within [0, S-1].
          for (std::size_t j = 0; j < count; ++j) {
            const double s = receive[j] + transmitDepth + x[j] * transmitLateral;
            const double atLeastZero = s > 0.0 ? s : 0.0;
            const double clamped = atLeastZero < lastSample ? atLeastZero : lastSample;
            const auto truncated = static_cast<std::int32_t>(clamped);
            const std::int32_t i = truncated < lastPair ? truncated : lastPair;
            index[g][j] = i;
            fraction[g][j] = static_cast<float>(clamped - static_cast<double>(i));
            inside[g][j] = static_cast<float>(s == clamped);
          }
        }
        const float* traces[kTransmitGroup];
        for (std::size_t g = 0; g < groupSize; ++g) {
          traces[g] = rf + ((group + g) * g_.elements + e) * g_.samples;
        }
        for (std::size_t j = 0; j < count; ++j) {  // B2: the gather
          float sum = 0.0f;
          for (std::size_t g = 0; g < groupSize; ++g) {
            const float a = traces[g][index[g][j]];
            const float b = traces[g][index[g][j] + 1];
            sum += inside[g][j] * (a + fraction[g][j] * (b - a));
          }
          target[j] += apodisation[j] * sum;
        }
      }
    }
  }
  const float scale = 1.0f / static_cast<float>(g_.transmits);
  for (std::size_t i = 0; i < nx; ++i) {
    out[i] *= scale;
  }
}

using RowFunction = void (*)(const DasGeometry&, std::size_t, const float*, float*);

CINEFLOW_ISA_AVX512 void rowAvx512(const DasGeometry& g, std::size_t row, const float* rf,
                                   float* image) {
  beamformRow(g, row, rf, image);
}
CINEFLOW_ISA_AVX2 void rowAvx2(const DasGeometry& g, std::size_t row, const float* rf,
                               float* image) {
  beamformRow(g, row, rf, image);
}
void rowPortable(const DasGeometry& g, std::size_t row, const float* rf, float* image) {
  beamformRow(g, row, rf, image);
}

}  // namespace

DasKernel::DasKernel(const acquire::AcquisitionParams& acq, const ImagingParams& imaging,
                     double sampleRateHz, std::size_t samples)
    : g_(acq, imaging, sampleRateHz, samples) {}

void DasKernel::enqueue(compute::Stream& stream, const float* rf, float* image) const {
  stream.enqueueHost([this, rf, image] { run(rf, image); });
}

void DasKernel::selectVariant(std::size_t index) {
  if (index >= availableIsas().size()) {
    throw std::invalid_argument("beamform: no CPU variant " + std::to_string(index));
  }
  variant_ = index;
}

void DasKernel::run(const float* rf, float* image) const {
  const RowFunction row = pickIsa(availableIsas()[variant_], rowAvx512, rowAvx2, rowPortable);
  g_.forEachRow([&](std::size_t r) { row(g_, r, rf, image); });
}

}  // namespace cineflow::process::cpu

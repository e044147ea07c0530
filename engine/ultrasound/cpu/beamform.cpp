#include "ultrasound/cpu/beamform.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include "compute/cpu/isa.hpp"
#include "compute/cpu/parallel_for.hpp"
#include "ultrasound/cpu/beamform_fused.hpp"

namespace cineflow::ultrasound::cpu {
namespace {

// Pixels handled together: the per-pixel receive terms live in stack arrays of this length, so
// the stage needs no scratch memory and the arrays stay in L1.
constexpr std::size_t kBlock = 64;
// Transmits interpolated together: their sum is added to the image row once per group.
constexpr std::size_t kTransmitGroup = 4;

// The Hann weight (das_geometry.hpp's hannWeight) in float: Taylor terms to y^10 leave an error
// under float rounding for |u| < 1.
[[gnu::always_inline]] inline float hannWeightFloat(float u) {
  const float y = u * 1.57079632679489662f;
  const float y2 = y * y;
  const float c =
      1.0f +
      y2 * (-1.0f / 2 +
            y2 * (1.0f / 24 + y2 * (-1.0f / 720 + y2 * (1.0f / 40320 + y2 * (-1.0f / 3628800)))));
  return c * c;
}

// B2 for a group of G transmits: the gather, interpolation and weighted sum of each pixel's
// samples, added to the image row once. G is a constant so that the transmit loop unrolls.
template <std::size_t G>
[[gnu::always_inline]] inline void gatherGroup(std::size_t count, const float* const* traces,
                                               const std::int32_t (*index)[kBlock],
                                               const float (*fraction)[kBlock],
                                               const float (*weight)[kBlock], float* target) {
  for (std::size_t j = 0; j < count; ++j) {
    float sum = 0.0f;
    for (std::size_t g = 0; g < G; ++g) {
      const float a = traces[g][index[g][j]];
      const float b = traces[g][index[g][j] + 1];
      sum += weight[g][j] * (a + fraction[g][j] * (b - a));
    }
    target[j] += sum;
  }
}

// One image row: the loops every instruction-set variant compiles (inlined into each function
// below). Delays in float, twice the vector width of double, split into an integer base and a
// small remainder (ultrasound/transmit_split.hpp) so that they stay good to about 1e-5
// samples.
[[gnu::always_inline]] inline void beamformRow(const DasGeometry& g_, std::size_t row,
                                               const float* rf, float* image) {
  const std::size_t nx = g_.pixelX.size();
  const auto [out, z, halfAperture] = g_.startRow(row, image);
  if (!(halfAperture > 0)) {
    return;  // no receive aperture at the surface
  }
  const auto inverseHalfAperture = static_cast<float>(1.0 / halfAperture);
  const auto depth = static_cast<float>(z);
  const auto z2 = static_cast<float>(z * z);
  const auto samplesPerMetre = static_cast<float>(g_.samplesPerMetre);
  const TransmitSplit* splits = g_.splitsOfRow(row);
  const auto lastPair = static_cast<std::int32_t>(g_.samples) - 2;
  const float hann = g_.rectangular ? 0.0f : 1.0f;

  // Per block of pixels: the receive path and apodisation once (loop A); then, for a group of
  // transmits, the sample positions and weights (loop B1) and the gather (B2). A and B1 carry no
  // loads from the traces and vectorise; B2 is branch-free (positions outside [0, S-1] read a
  // valid pair with zero weight).
  float receive[kBlock];  // the receive path's excess over z, in samples
  float apodisation[kBlock];
  std::int32_t index[kTransmitGroup][kBlock];
  float fraction[kTransmitGroup][kBlock];
  float weight[kTransmitGroup][kBlock];  // apodisation where the position is in [0, S-1], else 0
  for (std::size_t e = 0; e < g_.elements; ++e) {
    const double xe = g_.elementX[e];
    const auto xeFloat = static_cast<float>(xe);
    // The pixels with |x - xe| < h, exactly: keeping the test out of the pixel loops lets them
    // vectorise.
    const auto [begin, end] = g_.apertureRun(xe, halfAperture);
    for (std::size_t blockBegin = begin; blockBegin < end; blockBegin += kBlock) {
      const std::size_t count = std::min(kBlock, end - blockBegin);
      const float* x = g_.pixelXFloat.data() + blockBegin;
      float* target = out + blockBegin;
      // A: std::sqrt vectorises here only where errno is not set by math (-fno-math-errno).
      for (std::size_t j = 0; j < count; ++j) {
        const float lateral = x[j] - xeFloat;
        const float lateral2 = lateral * lateral;
        receive[j] = lateral2 / (std::sqrt(lateral2 + z2) + depth) * samplesPerMetre;
        apodisation[j] = 1.0f + hann * (hannWeightFloat(lateral * inverseHalfAperture) - 1.0f);
      }
      for (std::size_t group = 0; group < g_.transmits; group += kTransmitGroup) {
        const std::size_t groupSize = std::min(kTransmitGroup, g_.transmits - group);
        for (std::size_t g = 0; g < groupSize; ++g) {
          const std::int32_t base = splits[group + g].base;
          const float offset = splits[group + g].offset;
          const float low = splits[group + g].low;
          const float high = splits[group + g].high;
          const float transmitLateral = g_.sinSamplesFloat[group + g];
          // B1: min / max and an equality test rather than branches or && so that it
          // vectorises; s == clamped exactly when base + s lies within [0, S-1].
          for (std::size_t j = 0; j < count; ++j) {
            const float s = receive[j] + x[j] * transmitLateral + offset;
            const float atLeastLow = s > low ? s : low;
            const float clamped = atLeastLow < high ? atLeastLow : high;
            // floor(clamped) without std::floor, which does not vectorise here.
            const auto truncated = static_cast<std::int32_t>(clamped);
            const std::int32_t whole =
                truncated - static_cast<std::int32_t>(static_cast<float>(truncated) > clamped) +
                base;
            const std::int32_t i = whole < lastPair ? whole : lastPair;
            index[g][j] = i;
            fraction[g][j] = clamped - static_cast<float>(i - base);
            weight[g][j] = s == clamped ? apodisation[j] : 0.0f;
          }
        }
        const float* traces[kTransmitGroup];
        for (std::size_t g = 0; g < groupSize; ++g) {
          traces[g] = rf + ((group + g) * g_.elements + e) * g_.samples;
        }
        switch (groupSize) {
          case 1:
            gatherGroup<1>(count, traces, index, fraction, weight, target);
            break;
          case 2:
            gatherGroup<2>(count, traces, index, fraction, weight, target);
            break;
          case 3:
            gatherGroup<3>(count, traces, index, fraction, weight, target);
            break;
          default:
            gatherGroup<kTransmitGroup>(count, traces, index, fraction, weight, target);
            break;
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

// Fastest expected first: the fused AVX-512 row, then the table-based rows by instruction set.
const std::vector<compute::cpu::NamedVariant<RowFunction>>& rowVariants() {
  static const auto variants = compute::cpu::isaVariants<RowFunction>(
      fusedRowAvailable() ? beamformRowFused : nullptr, rowAvx512, rowAvx2, rowPortable);
  return variants;
}

}  // namespace

DasKernel::DasKernel(const acquire::AcquisitionParams& acq, const ImagingParams& imaging,
                     double sampleRateHz, std::size_t samples)
    : g_(acq, imaging, sampleRateHz, samples) {}

void DasKernel::enqueue(compute::Stream& stream, const float* rf, float* image) const {
  stream.enqueueHost([this, rf, image] { run(rf, image); });
}

std::vector<std::string> DasKernel::variantNames() {
  std::vector<std::string> names;
  for (const auto& variant : rowVariants()) {
    names.push_back(variant.name);
  }
  return names;
}

void DasKernel::selectVariant(std::size_t index) {
  if (index >= rowVariants().size()) {
    throw std::invalid_argument("beamform: no CPU variant " + std::to_string(index));
  }
  variant_ = index;
}

void DasKernel::run(const float* rf, float* image) const {
  const RowFunction row = rowVariants()[variant_].function;
  g_.forEachRow([&](std::size_t r) { row(g_, r, rf, image); });
}

}  // namespace cineflow::ultrasound::cpu

#include "ultrasound/cpu/iq_beamform.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "compute/cpu/isa.hpp"
#include "compute/cpu/parallel_for.hpp"

namespace cineflow::ultrasound::cpu {
namespace {

// Pixels handled together: their sums and per-pixel terms live in stack arrays of this length.
constexpr std::size_t kBlock = 64;
// Transmits whose carrier phasors are kept together per block of pixels (stack arrays).
constexpr std::size_t kTransmitGroup = 16;

// sin and cos of 2 pi u for |u| <= 1/2, in float. The half turn folds onto a quarter turn
// (sin(pi - a) = sin a, cos(pi - a) = -cos a), where Taylor polynomials of degree 11 and 12 in
// 2 pi u are good to 4e-8 and 7e-9 (float rounding is 6e-8). Plain arithmetic (no std::fmin,
// std::copysign or branches, which stopped GCC from vectorising the loops that call it);
// std::sin and std::cos there were the kernel's largest cost.
inline void sinCosOfTurn(float u, float& sine, float& cosine) {
  const float folded = static_cast<float>(u > 0.25f) - static_cast<float>(u < -0.25f);  // -1, 0, 1
  const float w = folded * 0.5f + (1.0f - 2.0f * folded * folded) * u;
  const float cosineSign = 1.0f - 2.0f * folded * folded;
  const float v = w * 6.28318530717958647f;
  const float v2 = v * v;
  sine =
      v * (1.0f + v2 * (-1.0f / 6 +
                        v2 * (1.0f / 120 + v2 * (-1.0f / 5040 +
                                                 v2 * (1.0f / 362880 + v2 * (-1.0f / 39916800))))));
  const float c =
      1.0f +
      v2 * (-1.0f / 2 +
            v2 * (1.0f / 24 +
                  v2 * (-1.0f / 720 +
                        v2 * (1.0f / 40320 + v2 * (-1.0f / 3628800 + v2 * (1.0f / 479001600))))));
  cosine = cosineSign * c;
}

// cycles minus the nearest whole number, in [-1/2, 1/2]: adding and taking away 1.5 * 2^52 rounds
// to the nearest integer in plain arithmetic (|cycles| < 2^51), so the loops that call it
// vectorise where std::floor would not.
inline float reducedTurn(double cycles) {
  constexpr double kRound = 6755399441055744.0;
  return static_cast<float>(cycles - ((cycles + kRound) - kRound));
}

// One image row: the loops every variant compiles (inlined into each instruction set's function
// below).
[[gnu::always_inline]] inline void beamformRow(const DasGeometry& g_, double cyclesPerSample_,
                                               std::size_t row, const float* iq, float* envelope,
                                               float* beamformed) {
  const std::size_t nx = g_.pixelX.size();
  const auto [out, z, halfAperture] = g_.startRow(row, envelope);
  if (beamformed != nullptr) {
    std::fill(beamformed + 2 * row * nx, beamformed + 2 * (row + 1) * nx, 0.0f);
  }
  if (!(halfAperture > 0)) {
    return;  // no receive aperture at the surface
  }
  const double inverseHalfAperture = 1.0 / halfAperture;
  const double z2 = z * z;
  const double lastSample = static_cast<double>(g_.samples - 1);
  const auto lastPair = static_cast<std::int32_t>(g_.samples) - 2;
  const std::size_t transmitStride = g_.elements * g_.samples * 2;

  // The carrier's phase over the path, 2 pi f0 tau, splits into a transmit part (pixel and
  // transmit) and a receive part (pixel and element): exp(j 2 pi f0 tau) = T(x, z, t) R(x, z, e).
  // Per block of pixels and group of transmits, T once (loop T); per element the receive path and
  // R once (loop A); per transmit the sample positions and the product T R (loop B1, no loads
  // from the traces, vectorised), then the gather, interpolation and rotation (loop B2).
  // Positions outside [0, S-1] read a valid pair with zero weight, so no loops branch.
  float sumRe[kBlock];
  float sumIm[kBlock];
  double receive[kBlock];  // receive path in samples
  float weight[kBlock];
  float turn[kBlock];  // a phase in turns, reduced to [-1/2, 1/2]
  float receiveCos[kBlock], receiveSin[kBlock];
  float transmitCos[kTransmitGroup][kBlock], transmitSin[kTransmitGroup][kBlock];
  std::int32_t index[kBlock];
  float fraction[kBlock], gain[kBlock], cosine[kBlock], sine[kBlock];
  for (std::size_t blockBegin = 0; blockBegin < nx; blockBegin += kBlock) {
    const std::size_t blockEnd = std::min(nx, blockBegin + kBlock);
    const std::size_t blockCount = blockEnd - blockBegin;
    std::fill(sumRe, sumRe + kBlock, 0.0f);
    std::fill(sumIm, sumIm + kBlock, 0.0f);
    for (std::size_t groupBegin = 0; groupBegin < g_.transmits; groupBegin += kTransmitGroup) {
      const std::size_t groupEnd = std::min(g_.transmits, groupBegin + kTransmitGroup);
      for (std::size_t t = groupBegin; t < groupEnd; ++t) {  // T
        const double transmitDepth = z * g_.cosSamples[t];
        const double transmitLateral = g_.sinSamples[t];
        const double* x = g_.pixelX.data() + blockBegin;
        float* c = transmitCos[t - groupBegin];
        float* s = transmitSin[t - groupBegin];
        for (std::size_t j = 0; j < blockCount; ++j) {
          turn[j] = reducedTurn((transmitDepth + x[j] * transmitLateral) * cyclesPerSample_);
        }
        for (std::size_t j = 0; j < blockCount; ++j) {
          sinCosOfTurn(turn[j], s[j], c[j]);
        }
      }
      for (std::size_t e = 0; e < g_.elements; ++e) {
        const double xe = g_.elementX[e];
        auto [begin, end] = g_.apertureRun(xe, halfAperture);
        begin = std::max(begin, blockBegin);
        end = std::min(end, blockEnd);
        if (begin >= end) {
          continue;
        }
        const std::size_t count = end - begin;
        const std::size_t offset = begin - blockBegin;
        const double* x = g_.pixelX.data() + begin;
        float* re = sumRe + offset;
        float* im = sumIm + offset;
        if (g_.rectangular) {
          std::fill(weight, weight + count, 1.0f);
        } else {
          for (std::size_t j = 0; j < count; ++j) {
            weight[j] = static_cast<float>(hannWeight((x[j] - xe) * inverseHalfAperture));
          }
        }
        for (std::size_t j = 0; j < count; ++j) {  // A
          const double lateral = x[j] - xe;
          receive[j] = std::sqrt(lateral * lateral + z2) * g_.samplesPerMetre;
          turn[j] = reducedTurn(receive[j] * cyclesPerSample_);
        }
        for (std::size_t j = 0; j < count; ++j) {
          sinCosOfTurn(turn[j], receiveSin[j], receiveCos[j]);
        }
        for (std::size_t t = groupBegin; t < groupEnd; ++t) {
          const double transmitDepth = z * g_.cosSamples[t];
          const double transmitLateral = g_.sinSamples[t];
          const float* tc = transmitCos[t - groupBegin] + offset;
          const float* ts = transmitSin[t - groupBegin] + offset;
          for (std::size_t j = 0; j < count; ++j) {  // B1
            const double path = receive[j] + transmitDepth + x[j] * transmitLateral;
            const double s = path - g_.firstSample;
            const double atLeastZero = s > 0.0 ? s : 0.0;
            const double clamped = atLeastZero < lastSample ? atLeastZero : lastSample;
            const auto truncated = static_cast<std::int32_t>(clamped);
            const std::int32_t i = truncated < lastPair ? truncated : lastPair;
            index[j] = i;
            fraction[j] = static_cast<float>(clamped - static_cast<double>(i));
            gain[j] = static_cast<float>(s == clamped) * weight[j];
            cosine[j] = tc[j] * receiveCos[j] - ts[j] * receiveSin[j];
            sine[j] = ts[j] * receiveCos[j] + tc[j] * receiveSin[j];
          }
          const float* trace = iq + t * transmitStride + e * g_.samples * 2;
          for (std::size_t j = 0; j < count; ++j) {  // B2
            const float* pair = trace + 2 * static_cast<std::size_t>(index[j]);
            const float i0 = pair[0] + fraction[j] * (pair[2] - pair[0]);
            const float q0 = pair[1] + fraction[j] * (pair[3] - pair[1]);
            re[j] += gain[j] * (i0 * cosine[j] - q0 * sine[j]);
            im[j] += gain[j] * (i0 * sine[j] + q0 * cosine[j]);
          }
        }
      }
    }
    const float scale = 1.0f / static_cast<float>(g_.transmits);
    for (std::size_t i = blockBegin; i < blockEnd; ++i) {
      out[i] = std::hypot(sumRe[i - blockBegin], sumIm[i - blockBegin]) * scale;
    }
    if (beamformed != nullptr) {
      float* pair = beamformed + 2 * (row * nx + blockBegin);
      for (std::size_t j = 0; j < blockCount; ++j) {
        pair[2 * j] = sumRe[j] * scale;
        pair[2 * j + 1] = sumIm[j] * scale;
      }
    }
  }
}

using RowFunction = void (*)(const DasGeometry&, double, std::size_t, const float*, float*, float*);

CINEFLOW_ISA_AVX512 void rowAvx512(const DasGeometry& g, double cycles, std::size_t row,
                                   const float* iq, float* envelope, float* beamformed) {
  beamformRow(g, cycles, row, iq, envelope, beamformed);
}
CINEFLOW_ISA_AVX2 void rowAvx2(const DasGeometry& g, double cycles, std::size_t row,
                               const float* iq, float* envelope, float* beamformed) {
  beamformRow(g, cycles, row, iq, envelope, beamformed);
}
void rowPortable(const DasGeometry& g, double cycles, std::size_t row, const float* iq,
                 float* envelope, float* beamformed) {
  beamformRow(g, cycles, row, iq, envelope, beamformed);
}

}  // namespace

IqDasKernel::IqDasKernel(const acquire::AcquisitionParams& acq, const ImagingParams& imaging,
                         std::size_t iqSamples)
    : g_(acq, imaging, acq.samplingFrequencyHz / imaging.iqDecimation, iqSamples),
      cyclesPerSample_(acq.centerFrequencyHz * imaging.iqDecimation / acq.samplingFrequencyHz) {}

void IqDasKernel::enqueue(compute::Stream& stream, const float* iq, float* envelope,
                          float* beamformed) const {
  stream.enqueueHost([this, iq, envelope, beamformed] { run(iq, envelope, beamformed); });
}

void IqDasKernel::run(const float* iq, float* envelope, float* beamformed) const {
  const RowFunction row = compute::cpu::pickIsa(compute::cpu::availableIsas()[variant_], rowAvx512,
                                                rowAvx2, rowPortable);
  g_.forEachRow([&](std::size_t r) { row(g_, cyclesPerSample_, r, iq, envelope, beamformed); });
}

void IqDasKernel::selectVariant(std::size_t index) {
  if (index >= compute::cpu::availableIsas().size()) {
    throw std::invalid_argument("I/Q beamform: no CPU variant " + std::to_string(index));
  }
  variant_ = index;
}

}  // namespace cineflow::ultrasound::cpu

#pragma once
// What the CPU I/Q beamformer's rows share (ultrasound/cpu/iq_beamform.cpp and its fused
// AVX-512 row, iq_beamform_fused.cpp): the carrier's phase in turns, the transmit phasors of a
// block of pixels, and a row's start and a block's end. Plain arithmetic, always inlined, so that
// the loops vectorise inside the functions that call them, whatever instruction set those are
// compiled for.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "ultrasound/cpu/das_geometry.hpp"

namespace cineflow::ultrasound::cpu {

// sin and cos of 2 pi u for |u| <= 1/2, in float. The half turn folds onto a quarter turn
// (sin(pi - a) = sin a, cos(pi - a) = -cos a), where Taylor polynomials of degree 11 and 12 in
// 2 pi u are good to 4e-8 and 7e-9 (float rounding is 6e-8). Plain arithmetic (no std::fmin,
// std::copysign or branches, which stopped GCC from vectorising the loops that call it);
// std::sin and std::cos there were the kernel's largest cost.
[[gnu::always_inline]] inline void sinCosOfTurn(float u, float& sine, float& cosine) {
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
[[gnu::always_inline]] inline float reducedTurn(double cycles) {
  constexpr double kRound = 6755399441055744.0;
  return static_cast<float>(cycles - ((cycles + kRound) - kRound));
}

// Pixels handled together (their sums and per-pixel terms on the stack) and transmits whose
// carrier phasors are kept together per block.
constexpr std::size_t kIqBlock = 64;
constexpr std::size_t kIqTransmitGroup = 16;

// Zeroes row `row` of `envelope` and, when not null, of `beamformed` (complex [nz][nx]); returns
// the row as DasGeometry::startRow does.
[[gnu::always_inline]] inline DasGeometry::Row startIqRow(const DasGeometry& g, std::size_t row,
                                                          float* envelope, float* beamformed) {
  const std::size_t nx = g.pixelX.size();
  if (beamformed != nullptr) {
    std::fill(beamformed + 2 * row * nx, beamformed + 2 * (row + 1) * nx, 0.0f);
  }
  return g.startRow(row, envelope);
}

// T = exp(j 2 pi f0 (z cos a_t + x sin a_t) / c) for the pixels [blockBegin, blockBegin + count)
// and transmits [groupBegin, groupEnd), in double until reduced to a turn: cos and sin
// [t - groupBegin][pixel - blockBegin].
[[gnu::always_inline]] inline void transmitPhasors(const DasGeometry& g, double z,
                                                   double cyclesPerSample, std::size_t blockBegin,
                                                   std::size_t count, std::size_t groupBegin,
                                                   std::size_t groupEnd, float (*cosines)[kIqBlock],
                                                   float (*sines)[kIqBlock]) {
  for (std::size_t t = groupBegin; t < groupEnd; ++t) {
    const double transmitDepth = z * g.cosSamples[t];
    const double transmitLateral = g.sinSamples[t];
    const double* x = g.pixelX.data() + blockBegin;
    float* c = cosines[t - groupBegin];
    float* s = sines[t - groupBegin];
    for (std::size_t j = 0; j < count; ++j) {
      sinCosOfTurn(reducedTurn((transmitDepth + x[j] * transmitLateral) * cyclesPerSample), s[j],
                   c[j]);
    }
  }
}

// A block's sums over transmits into the row: |sum| / transmits into `out`, and the sum /
// transmits into `beamformed` when not null.
[[gnu::always_inline]] inline void finishIqBlock(const DasGeometry& g, std::size_t row,
                                                 std::size_t blockBegin, std::size_t count,
                                                 const float* sumRe, const float* sumIm, float* out,
                                                 float* beamformed) {
  const float scale = 1.0f / static_cast<float>(g.transmits);
  for (std::size_t j = 0; j < count; ++j) {
    out[blockBegin + j] = std::hypot(sumRe[j], sumIm[j]) * scale;
  }
  if (beamformed != nullptr) {
    float* pair = beamformed + 2 * (row * g.pixelX.size() + blockBegin);
    for (std::size_t j = 0; j < count; ++j) {
      pair[2 * j] = sumRe[j] * scale;
      pair[2 * j + 1] = sumIm[j] * scale;
    }
  }
}

}  // namespace cineflow::ultrasound::cpu

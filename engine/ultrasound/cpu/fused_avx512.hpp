#pragma once
// What the CPU beamformers' fused AVX-512 rows share (ultrasound/cpu/beamform_fused.cpp,
// iq_beamform_fused.cpp): CINEFLOW_FUSED_ROW where this build holds them (x86-64 with GCC), the
// intrinsics, and small helpers compiled for AVX-512.

#include <cstddef>

#include "compute/cpu/isa.hpp"
#include "ultrasound/cpu/das_geometry.hpp"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define CINEFLOW_FUSED_ROW 1
// GCC 12 flags the intrinsics' own "undefined" source vectors as maybe-uninitialised.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#else
#define CINEFLOW_FUSED_ROW 0
#endif

#if CINEFLOW_FUSED_ROW
namespace cineflow::ultrasound::cpu::fused {

constexpr std::size_t kLanes = 16;

// The lanes of the window's 16 floats from `offset` that lie inside the trace.
CINEFLOW_ISA_AVX512 inline __mmask16 loadMask(std::size_t available, std::size_t offset) {
  if (available >= offset + kLanes) {
    return 0xffffu;
  }
  return available <= offset ? 0u : static_cast<__mmask16>((1u << (available - offset)) - 1u);
}

// The Hann weight cos^2(pi u / 2) in float, as hannWeight (das_geometry.hpp) in double: Taylor
// terms to y^10 leave an error under float rounding for |u| < 1.
CINEFLOW_ISA_AVX512 inline __m512 hann(__m512 u) {
  const __m512 y = _mm512_mul_ps(u, _mm512_set1_ps(1.57079632679489662f));
  const __m512 y2 = _mm512_mul_ps(y, y);
  __m512 c = _mm512_set1_ps(-1.0f / 3628800);
  c = _mm512_fmadd_ps(c, y2, _mm512_set1_ps(1.0f / 40320));
  c = _mm512_fmadd_ps(c, y2, _mm512_set1_ps(-1.0f / 720));
  c = _mm512_fmadd_ps(c, y2, _mm512_set1_ps(1.0f / 24));
  c = _mm512_fmadd_ps(c, y2, _mm512_set1_ps(-1.0f / 2));
  c = _mm512_fmadd_ps(c, y2, _mm512_set1_ps(1.0f));
  return _mm512_mul_ps(c, c);
}

// The lanes of a vector of 16 pixels from j that lie before `end`.
inline __mmask16 pixelLanes(std::size_t j, std::size_t end) {
  return static_cast<__mmask16>(end - j >= kLanes ? 0xffffu : (1u << (end - j)) - 1u);
}

// A row's terms of the receive path, as vectors.
struct RowTerms {
  __m512 depth, depth2, samplesPerMetre, inverseHalfAperture;
  __m512i lastPair;  // the last index i whose pair (i, i + 1) lies inside a trace
};
CINEFLOW_ISA_AVX512 inline RowTerms rowTerms(const DasGeometry& g, double z, double halfAperture) {
  return {_mm512_set1_ps(static_cast<float>(z)), _mm512_set1_ps(static_cast<float>(z * z)),
          _mm512_set1_ps(static_cast<float>(g.samplesPerMetre)),
          _mm512_set1_ps(static_cast<float>(1.0 / halfAperture)),
          _mm512_set1_epi32(static_cast<std::int32_t>(g.samples) - 2)};
}

// 16 pixels' receive path from element position `xe`: x, x - xe and the path's excess over z in
// samples (ultrasound/transmit_split.hpp), 1 / (r + z) from the 14-bit estimate and one Newton
// step (28 bits), cheaper than a divide.
struct Receive {
  __m512 x, lateral, excess;
};
CINEFLOW_ISA_AVX512 inline Receive receivePath(const DasGeometry& g, const RowTerms& terms,
                                               __m512 xe, std::size_t j, __mmask16 lanes) {
  const __m512 x = _mm512_maskz_loadu_ps(lanes, g.pixelXFloat.data() + j);
  const __m512 lateral = _mm512_sub_ps(x, xe);
  const __m512 lateral2 = _mm512_mul_ps(lateral, lateral);
  const __m512 denominator =
      _mm512_add_ps(_mm512_sqrt_ps(_mm512_add_ps(lateral2, terms.depth2)), terms.depth);
  const __m512 estimate = _mm512_rcp14_ps(denominator);
  const __m512 reciprocal =
      _mm512_mul_ps(estimate, _mm512_fnmadd_ps(denominator, estimate, _mm512_set1_ps(2.0f)));
  return {x, lateral, _mm512_mul_ps(_mm512_mul_ps(lateral2, reciprocal), terms.samplesPerMetre)};
}

// The apodisation weight of 16 pixels (Hann, or 1 for rectangular).
CINEFLOW_ISA_AVX512 inline __m512 receiveWeight(const DasGeometry& g, const RowTerms& terms,
                                                const Receive& receive) {
  return g.rectangular ? _mm512_set1_ps(1.0f)
                       : hann(_mm512_mul_ps(receive.lateral, terms.inverseHalfAperture));
}

// Where 16 pixels read transmit `t`'s trace: the pair index i (clamped inside it), the fraction
// between i and i + 1, and the lanes whose position lies inside the trace (the others read a
// valid pair and are left out of the sum).
struct Position {
  __m512i i;
  __m512 fraction;
  __mmask16 inside;
};
CINEFLOW_ISA_AVX512 inline Position samplePosition(const DasGeometry& g, const RowTerms& terms,
                                                   const TransmitSplit& split, std::size_t t,
                                                   const Receive& receive, __mmask16 lanes) {
  const __m512 s = _mm512_add_ps(
      _mm512_fmadd_ps(receive.x, _mm512_set1_ps(g.sinSamplesFloat[t]), receive.excess),
      _mm512_set1_ps(split.offset));
  const __m512 clamped =
      _mm512_min_ps(_mm512_max_ps(s, _mm512_set1_ps(split.low)), _mm512_set1_ps(split.high));
  const __m512i base = _mm512_set1_epi32(split.base);
  const __m512i i = _mm512_min_epi32(
      _mm512_add_epi32(_mm512_cvttps_epi32(_mm512_roundscale_ps(clamped, _MM_FROUND_TO_NEG_INF)),
                       base),
      terms.lastPair);
  const __m512 fraction = _mm512_sub_ps(clamped, _mm512_cvtepi32_ps(_mm512_sub_epi32(i, base)));
  return {i, fraction, _mm512_mask_cmp_ps_mask(lanes, s, clamped, _CMP_EQ_OQ)};
}

}  // namespace cineflow::ultrasound::cpu::fused
#endif

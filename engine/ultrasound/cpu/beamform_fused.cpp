#include "ultrasound/cpu/beamform_fused.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "compute/cpu/isa.hpp"

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

namespace cineflow::ultrasound::cpu {

#if CINEFLOW_FUSED_ROW
namespace {

constexpr std::size_t kLanes = 16;
// Samples loaded as a window when a vector's pairs all fall within it (four registers).
constexpr int kWindow = 64;

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

}  // namespace

bool fusedRowAvailable() {
  const auto& isas = compute::cpu::availableIsas();
  return std::find(isas.begin(), isas.end(), compute::cpu::Isa::Avx512) != isas.end();
}

CINEFLOW_ISA_AVX512 void beamformRowFused(const DasGeometry& g, std::size_t row, const float* rf,
                                          float* image) {
  const std::size_t nx = g.pixelX.size();
  const auto [out, z, halfAperture] = g.startRow(row, image);
  if (!(halfAperture > 0)) {
    return;  // no receive aperture at the surface
  }
  const __m512 inverseHalfAperture = _mm512_set1_ps(static_cast<float>(1.0 / halfAperture));
  const __m512 depth = _mm512_set1_ps(static_cast<float>(z));
  const __m512 z2 = _mm512_set1_ps(static_cast<float>(z * z));
  const __m512 samplesPerMetre = _mm512_set1_ps(static_cast<float>(g.samplesPerMetre));
  const __m512i lastPair = _mm512_set1_epi32(static_cast<std::int32_t>(g.samples) - 2);
  // Splits 16 gathered (s, s + 1) pairs into the samples at s and at s + 1.
  const __m512i evens =
      _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512i one = _mm512_set1_epi32(1);
  const __m512i odds = _mm512_add_epi32(evens, one);
  const __m512i upperHalf = _mm512_set1_epi32(32);
  const TransmitSplit* splits = g.splitsOfRow(row);
  const std::size_t traceStride = g.elements * g.samples;
  for (std::size_t e = 0; e < g.elements; ++e) {
    const __m512 xe = _mm512_set1_ps(static_cast<float>(g.elementX[e]));
    const auto [begin, end] = g.apertureRun(g.elementX[e], halfAperture);
    const float* firstTrace = rf + e * g.samples;
    for (std::size_t j = begin; j < end; j += kLanes) {
      const auto lanes =
          static_cast<__mmask16>(end - j >= kLanes ? 0xffffu : (1u << (end - j)) - 1u);
      const __m512 x = _mm512_maskz_loadu_ps(lanes, g.pixelXFloat.data() + j);
      const __m512 lateral = _mm512_sub_ps(x, xe);
      const __m512 lateral2 = _mm512_mul_ps(lateral, lateral);
      // The receive path's excess over z, in samples (ultrasound/transmit_split.hpp).
      // 1 / (r + z) from the 14-bit estimate and one Newton step (28 bits), cheaper than a divide.
      const __m512 denominator = _mm512_add_ps(_mm512_sqrt_ps(_mm512_add_ps(lateral2, z2)), depth);
      const __m512 estimate = _mm512_rcp14_ps(denominator);
      const __m512 reciprocal =
          _mm512_mul_ps(estimate, _mm512_fnmadd_ps(denominator, estimate, _mm512_set1_ps(2.0f)));
      const __m512 excess = _mm512_mul_ps(_mm512_mul_ps(lateral2, reciprocal), samplesPerMetre);
      __m512 sum = _mm512_setzero_ps();
      const float* trace = firstTrace;
      for (std::size_t t = 0; t < g.transmits; ++t, trace += traceStride) {
        const TransmitSplit& split = splits[t];
        const __m512 s =
            _mm512_add_ps(_mm512_fmadd_ps(x, _mm512_set1_ps(g.sinSamplesFloat[t]), excess),
                          _mm512_set1_ps(split.offset));
        const __m512 clamped =
            _mm512_min_ps(_mm512_max_ps(s, _mm512_set1_ps(split.low)), _mm512_set1_ps(split.high));
        const __m512i base = _mm512_set1_epi32(split.base);
        const __m512i i = _mm512_min_epi32(
            _mm512_add_epi32(
                _mm512_cvttps_epi32(_mm512_roundscale_ps(clamped, _MM_FROUND_TO_NEG_INF)), base),
            lastPair);
        const __m512 fraction =
            _mm512_sub_ps(clamped, _mm512_cvtepi32_ps(_mm512_sub_epi32(i, base)));
        const __mmask16 inside = _mm512_mask_cmp_ps_mask(lanes, s, clamped, _CMP_EQ_OQ);
        __m512 a, b;
        const int first = _mm512_mask_reduce_min_epi32(lanes, i);
        if (_mm512_mask_reduce_max_epi32(lanes, i) - first < kWindow - 1) {
          // Every pair lies within the kWindow samples from `first`: four loads and permutes.
          const float* window = trace + first;
          const std::size_t available = g.samples - static_cast<std::size_t>(first);
          const __m512 w0 = _mm512_maskz_loadu_ps(loadMask(available, 0), window);
          const __m512 w1 = _mm512_maskz_loadu_ps(loadMask(available, 16), window + 16);
          const __m512 w2 = _mm512_maskz_loadu_ps(loadMask(available, 32), window + 32);
          const __m512 w3 = _mm512_maskz_loadu_ps(loadMask(available, 48), window + 48);
          const __m512i at = _mm512_maskz_sub_epi32(lanes, i, _mm512_set1_epi32(first));
          const __m512i next = _mm512_add_epi32(at, one);
          a = _mm512_mask_blend_ps(_mm512_test_epi32_mask(at, upperHalf),
                                   _mm512_permutex2var_ps(w0, at, w1),
                                   _mm512_permutex2var_ps(w2, at, w3));
          b = _mm512_mask_blend_ps(_mm512_test_epi32_mask(next, upperHalf),
                                   _mm512_permutex2var_ps(w0, next, w1),
                                   _mm512_permutex2var_ps(w2, next, w3));
        } else {
          const __m512i low = _mm512_i32gather_epi64(_mm512_castsi512_si256(i), trace, 4);
          const __m512i high = _mm512_i32gather_epi64(_mm512_extracti64x4_epi64(i, 1), trace, 4);
          a = _mm512_castsi512_ps(_mm512_permutex2var_epi32(low, evens, high));
          b = _mm512_castsi512_ps(_mm512_permutex2var_epi32(low, odds, high));
        }
        sum =
            _mm512_mask_add_ps(sum, inside, sum, _mm512_fmadd_ps(fraction, _mm512_sub_ps(b, a), a));
      }
      const __m512 weight =
          g.rectangular ? _mm512_set1_ps(1.0f) : hann(_mm512_mul_ps(lateral, inverseHalfAperture));
      const __m512 previous = _mm512_maskz_loadu_ps(lanes, out + j);
      _mm512_mask_storeu_ps(out + j, lanes, _mm512_fmadd_ps(weight, sum, previous));
    }
  }
  const __m512 scale = _mm512_set1_ps(1.0f / static_cast<float>(g.transmits));
  for (std::size_t j = 0; j < nx; j += kLanes) {
    const auto lanes = static_cast<__mmask16>(nx - j >= kLanes ? 0xffffu : (1u << (nx - j)) - 1u);
    _mm512_mask_storeu_ps(out + j, lanes,
                          _mm512_mul_ps(_mm512_maskz_loadu_ps(lanes, out + j), scale));
  }
}

#else

bool fusedRowAvailable() {
  return false;
}

void beamformRowFused(const DasGeometry&, std::size_t, const float*, float*) {
  throw std::logic_error("beamform: the fused AVX-512 row is not in this build");
}

#endif

}  // namespace cineflow::ultrasound::cpu

#include "ultrasound/cpu/beamform_fused.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "ultrasound/cpu/fused_avx512.hpp"

namespace cineflow::ultrasound::cpu {

#if CINEFLOW_FUSED_ROW
namespace {

using fused::kLanes;
using fused::loadMask;
// Samples loaded as a window when a vector's pairs all fall within it (four registers).
constexpr int kWindow = 64;

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
  const fused::RowTerms terms = fused::rowTerms(g, z, halfAperture);
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
      const __mmask16 lanes = fused::pixelLanes(j, end);
      const fused::Receive receive = fused::receivePath(g, terms, xe, j, lanes);
      __m512 sum = _mm512_setzero_ps();
      const float* trace = firstTrace;
      for (std::size_t t = 0; t < g.transmits; ++t, trace += traceStride) {
        const auto [i, fraction, inside] =
            fused::samplePosition(g, terms, splits[t], t, receive, lanes);
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
      const __m512 weight = fused::receiveWeight(g, terms, receive);
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

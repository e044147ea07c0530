#include "ultrasound/cpu/iq_beamform_fused.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "ultrasound/cpu/fused_avx512.hpp"
#include "ultrasound/cpu/iq_row.hpp"

namespace cineflow::ultrasound::cpu {

#if CINEFLOW_FUSED_ROW
namespace {

using fused::kLanes;
constexpr std::size_t kBlock = kIqBlock;
constexpr std::size_t kTransmitGroup = kIqTransmitGroup;

}  // namespace

CINEFLOW_ISA_AVX512 void iqBeamformRowFused(const DasGeometry& g, double cyclesPerSample,
                                            std::size_t row, const float* iq, float* envelope,
                                            float* beamformed) {
  const std::size_t nx = g.pixelX.size();
  const auto [out, z, halfAperture] = startIqRow(g, row, envelope, beamformed);
  if (!(halfAperture > 0)) {
    return;  // no receive aperture at the surface
  }
  const fused::RowTerms terms = fused::rowTerms(g, z, halfAperture);
  const __m512 cycles = _mm512_set1_ps(static_cast<float>(cyclesPerSample));
  // The receive phase splits as the position does: z rate / c in double, reduced to a turn once
  // per row, plus the excess (a few hundred samples at most) in float.
  const __m512 depthTurn = _mm512_set1_ps(reducedTurn(z * g.samplesPerMetre * cyclesPerSample));
  // Splits 8 + 8 gathered complex samples (I, Q) into their I and Q.
  const __m512i evens =
      _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512i one = _mm512_set1_epi32(1);
  const __m512i odds = _mm512_add_epi32(evens, one);
  const TransmitSplit* splits = g.splitsOfRow(row);
  const std::size_t transmitStride = g.elements * g.samples * 2;

  alignas(64) float sumRe[kBlock], sumIm[kBlock];
  alignas(64) float transmitCos[kTransmitGroup][kBlock], transmitSin[kTransmitGroup][kBlock];
  alignas(64) float turns[kLanes], receiveCos[kLanes], receiveSin[kLanes];
  for (std::size_t blockBegin = 0; blockBegin < nx; blockBegin += kBlock) {
    const std::size_t blockEnd = std::min(nx, blockBegin + kBlock);
    const std::size_t blockCount = blockEnd - blockBegin;
    std::fill(sumRe, sumRe + kBlock, 0.0f);
    std::fill(sumIm, sumIm + kBlock, 0.0f);
    for (std::size_t groupBegin = 0; groupBegin < g.transmits; groupBegin += kTransmitGroup) {
      const std::size_t groupEnd = std::min(g.transmits, groupBegin + kTransmitGroup);
      transmitPhasors(g, z, cyclesPerSample, blockBegin, blockCount, groupBegin, groupEnd,
                      transmitCos, transmitSin);  // T
      for (std::size_t e = 0; e < g.elements; ++e) {
        const __m512 xe = _mm512_set1_ps(static_cast<float>(g.elementX[e]));
        auto [begin, end] = g.apertureRun(g.elementX[e], halfAperture);
        begin = std::max(begin, blockBegin);
        end = std::min(end, blockEnd);
        const float* firstTrace = iq + e * g.samples * 2;
        for (std::size_t j = begin; j < end; j += kLanes) {
          const __mmask16 lanes = fused::pixelLanes(j, end);
          const std::size_t offset = j - blockBegin;
          const fused::Receive receive = fused::receivePath(g, terms, xe, j, lanes);
          // R = exp(j 2 pi f0 receive): the turn reduced to [-1/2, 1/2], then its sine and cosine.
          const __m512 turn = _mm512_fmadd_ps(receive.excess, cycles, depthTurn);
          _mm512_store_ps(
              turns, _mm512_sub_ps(turn, _mm512_roundscale_ps(
                                             turn, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)));
          for (std::size_t k = 0; k < kLanes; ++k) {
            sinCosOfTurn(turns[k], receiveSin[k], receiveCos[k]);
          }
          const __m512 rc = _mm512_load_ps(receiveCos), rs = _mm512_load_ps(receiveSin);
          __m512 re = _mm512_setzero_ps(), im = _mm512_setzero_ps();
          for (std::size_t t = groupBegin; t < groupEnd; ++t) {
            const auto [i, fraction, inside] =
                fused::samplePosition(g, terms, splits[t], t, receive, lanes);
            // (I, Q) at i and at i + 1: 64-bit lanes of the interleaved trace.
            const float* trace = firstTrace + t * transmitStride;
            const __m256i low = _mm512_castsi512_si256(i);
            const __m256i high = _mm512_extracti64x4_epi64(i, 1);
            const __m512i a0 = _mm512_castpd_si512(_mm512_i32gather_pd(low, trace, 8));
            const __m512i a1 = _mm512_castpd_si512(_mm512_i32gather_pd(high, trace, 8));
            const __m512i b0 = _mm512_castpd_si512(_mm512_i32gather_pd(low, trace + 2, 8));
            const __m512i b1 = _mm512_castpd_si512(_mm512_i32gather_pd(high, trace + 2, 8));
            const __m512 ia = _mm512_castsi512_ps(_mm512_permutex2var_epi32(a0, evens, a1));
            const __m512 qa = _mm512_castsi512_ps(_mm512_permutex2var_epi32(a0, odds, a1));
            const __m512 ib = _mm512_castsi512_ps(_mm512_permutex2var_epi32(b0, evens, b1));
            const __m512 qb = _mm512_castsi512_ps(_mm512_permutex2var_epi32(b0, odds, b1));
            const __m512 iv = _mm512_fmadd_ps(fraction, _mm512_sub_ps(ib, ia), ia);
            const __m512 qv = _mm512_fmadd_ps(fraction, _mm512_sub_ps(qb, qa), qa);
            // The rotation T R.
            const __m512 tc = _mm512_maskz_loadu_ps(lanes, transmitCos[t - groupBegin] + offset);
            const __m512 ts = _mm512_maskz_loadu_ps(lanes, transmitSin[t - groupBegin] + offset);
            const __m512 pc = _mm512_fmsub_ps(tc, rc, _mm512_mul_ps(ts, rs));
            const __m512 ps = _mm512_fmadd_ps(ts, rc, _mm512_mul_ps(tc, rs));
            re = _mm512_mask_add_ps(re, inside, re, _mm512_fmsub_ps(iv, pc, _mm512_mul_ps(qv, ps)));
            im = _mm512_mask_add_ps(im, inside, im, _mm512_fmadd_ps(iv, ps, _mm512_mul_ps(qv, pc)));
          }
          const __m512 weight = fused::receiveWeight(g, terms, receive);
          _mm512_mask_storeu_ps(
              sumRe + offset, lanes,
              _mm512_fmadd_ps(weight, re, _mm512_maskz_loadu_ps(lanes, sumRe + offset)));
          _mm512_mask_storeu_ps(
              sumIm + offset, lanes,
              _mm512_fmadd_ps(weight, im, _mm512_maskz_loadu_ps(lanes, sumIm + offset)));
        }
      }
    }
    finishIqBlock(g, row, blockBegin, blockCount, sumRe, sumIm, out, beamformed);
  }
}

#else

void iqBeamformRowFused(const DasGeometry&, double, std::size_t, const float*, float*, float*) {
  throw std::logic_error("I/Q beamform: the fused AVX-512 row is not in this build");
}

#endif

}  // namespace cineflow::ultrasound::cpu

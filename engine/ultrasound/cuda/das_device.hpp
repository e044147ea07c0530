#pragma once
// One thread's work in the delay-and-sum kernels (beamform.cu: one element of an RF pixel;
// iq_beamform.cu: an I/Q pixel) and the I/Q demodulation kernel (iq_demodulate.cu: one sample),
// as functions that also compile for the host (device_code.hpp): tests/unit/test_device_code.cpp
// runs them on the CPU against the CPU twins.

#include <cstddef>

#include "process/cuda/device_code.hpp"
#include "ultrasound/das_params.hpp"

namespace cineflow::ultrasound::cuda {

// The elements [first, last] that may lie within the receive aperture of a pixel at lateral x:
// all of them, or on a uniform array only those near it (each still checked against the aperture).
CINEFLOW_HD inline void apertureElements(const DasParams& p, float x, float halfAperture,
                                         int& first, int& last) {
  first = 0;
  last = p.elements - 1;
  if (p.elementPitch > 0) {
    const float firstX = static_cast<float>(p.elementX[0]);
    first = process::cuda::maxInt(
        0, static_cast<int>(ceilf((x - halfAperture - firstX) / p.elementPitch)) - 1);
    last = process::cuda::minInt(
        p.elements - 1, static_cast<int>(floorf((x + halfAperture - firstX) / p.elementPitch)) + 1);
  }
}

// The receive weight at u = (x - x_e) / halfAperture, |u| < 1 (ImagingParams::apodisation).
CINEFLOW_HD inline float receiveWeight(const DasParams& p, float u) {
  return p.rectangular ? 1.0f : 0.5f * (1.0f + process::cuda::cosPi(u));
}

// A pixel of the delay-and-sum: its position, its receive aperture and the elements that may lie
// within it (each still checked with inside()).
struct DasPixel {
  double x = 0, z = 0;
  double halfAperture = 0;  // z / (2 fNumber)
  float inverseHalfAperture = 0;
  int first = 0, last = -1;
  // Whether element e is inside the aperture: decided in double, as the CPU twins do.
  CINEFLOW_HD bool inside(double lateral) const { return fabs(lateral) < halfAperture; }
};

CINEFLOW_HD inline DasPixel dasPixel(const DasParams& p, int ix, int iz) {
  DasPixel px;
  px.x = process::cuda::addProduct(p.x0, ix, p.dx);
  px.z = process::cuda::addProduct(p.z0, iz, p.dz);
  px.halfAperture = px.z * p.halfApertureScale;
  const float halfApertureF = static_cast<float>(px.halfAperture);
  apertureElements(p, static_cast<float>(px.x), halfApertureF, px.first, px.last);
  px.inverseHalfAperture = 1.0f / halfApertureF;
  return px;
}

// sum + element e's weighted RF over every transmit, for pixel `px` (sum unchanged outside the
// aperture): RF traces [transmits][elements][samples] interpolated linearly at each plane wave's
// delay.
CINEFLOW_HD inline float rfDasAccumulate(const float* rf, const DasParams& p, const DasPixel& px,
                                         int e, float sum) {
  const double lateral = px.x - p.elementX[e];
  if (!px.inside(lateral)) {
    return sum;
  }
  const float weight = receiveWeight(p, static_cast<float>(lateral) * px.inverseHalfAperture);
  // sqrt in float, then one Newton step in double: double-accurate at a fraction of the cost.
  const double squared = fma(lateral, lateral, px.z * px.z);
  const double guess = static_cast<double>(sqrtf(static_cast<float>(squared)));
  const double distance = 0.5 * (guess + squared / guess);
  const double receive = fma(distance, p.samplesPerMetre, -p.firstSample);
  const double lastSample = static_cast<double>(p.samples - 1);
  const std::size_t transmitStride = static_cast<std::size_t>(p.elements) * p.samples;
  const float* row = rf + static_cast<std::size_t>(e) * p.samples;
  float partial = 0.0f;
  for (int t = 0; t < p.transmits; ++t) {
    const double s = fma(px.z, p.cosSamples[t], fma(px.x, p.sinSamples[t], receive));
    if (s >= 0.0 && s <= lastSample) {
      const int i = process::cuda::minInt(static_cast<int>(s), p.samples - 2);
      const float frac = static_cast<float>(s - static_cast<double>(i));
      const float* samples = row + t * transmitStride;
      const float a = process::cuda::loadReadOnly(samples + i);
      const float b = process::cuda::loadReadOnly(samples + i + 1);
      partial += fmaf(frac, b - a, a);
    }
  }
  return fmaf(weight, partial, sum);
}

// The receive terms of pixel `px` and element e for the split-float delays
// (ultrasound/transmit_split.hpp): the receive path's excess over z in samples (small, so good to
// ~1e-5 samples in float) and the apodisation weight. False outside the aperture, which is
// decided in double, as the CPU twins decide it.
CINEFLOW_HD inline bool rfReceiveTerms(const DasParams& p, const DasPixel& px, int e, float& excess,
                                       float& weight) {
  const double lateral = px.x - p.elementX[e];
  if (!px.inside(lateral)) {
    return false;
  }
  const float lateralF = static_cast<float>(lateral);
  weight = receiveWeight(p, lateralF * px.inverseHalfAperture);
  const float z = static_cast<float>(px.z);
  const float lateral2 = lateralF * lateralF;
  excess = lateral2 / (sqrtf(lateral2 + z * z) + z) * static_cast<float>(p.samplesPerMetre);
  return true;
}

// Element e's RF summed over every transmit for a pixel at lateral `x`, row `iz`, whose receive
// excess is `excess`: `splitBase` and `splitOffset` hold the row's split for transmit t at
// [t * nz + iz] (made once per geometry, makeTransmitSplitTables).
CINEFLOW_HD inline float rfTransmitSum(const float* rf, const DasParams& p, float x, float excess,
                                       const int* splitBase, const float* splitOffset, int iz,
                                       int e) {
  const std::size_t transmitStride = static_cast<std::size_t>(p.elements) * p.samples;
  const float* row = rf + static_cast<std::size_t>(e) * p.samples;
  float partial = 0.0f;
  for (int t = 0; t < p.transmits; ++t) {
    const std::size_t at = static_cast<std::size_t>(t) * p.nz + iz;
    const int base = process::cuda::loadReadOnly(splitBase + at);
    const float s = fmaf(x, static_cast<float>(p.sinSamples[t]), excess) +
                    process::cuda::loadReadOnly(splitOffset + at);
    // Inside the trace when base + s lies within [0, samples - 1].
    const float low = static_cast<float>(-base);
    const float high = static_cast<float>(p.samples - 1 - base);
    if (s >= low && s <= high) {
      const float whole = floorf(s);
      const int i = process::cuda::minInt(static_cast<int>(whole) + base, p.samples - 2);
      const float frac = s - static_cast<float>(i - base);
      const float* samples = row + t * transmitStride;
      const float a = process::cuda::loadReadOnly(samples + i);
      const float b = process::cuda::loadReadOnly(samples + i + 1);
      partial += fmaf(frac, b - a, a);
    }
  }
  return partial;
}

// rfDasAccumulate with the delays in float, split as ultrasound/transmit_split.hpp says: no
// double arithmetic per pixel-element pair or per transmit (GPUs whose double precision runs at
// 1/64 of float pay most for it).
CINEFLOW_HD inline float rfDasAccumulateSplit(const float* rf, const DasParams& p,
                                              const DasPixel& px, const int* splitBase,
                                              const float* splitOffset, int iz, int e, float sum) {
  float excess = 0.0f, weight = 0.0f;
  if (!rfReceiveTerms(p, px, e, excess, weight)) {
    return sum;
  }
  const float partial =
      rfTransmitSum(rf, p, static_cast<float>(px.x), excess, splitBase, splitOffset, iz, e);
  return fmaf(weight, partial, sum);
}

// The receive table of the tabled variant: entry [(ix * elements + e) * nz + iz] holds pixel
// (ix, iz)'s rfReceiveTerms for element e as (excess, weight), weight 0 outside the aperture, so
// that consecutive depths (a warp's threads) read consecutive entries. Made once per geometry.
CINEFLOW_HD inline std::size_t receiveTableIndex(const DasParams& p, int ix, int iz, int e) {
  return (static_cast<std::size_t>(ix) * p.elements + static_cast<std::size_t>(e)) * p.nz +
         static_cast<std::size_t>(iz);
}
CINEFLOW_HD inline float2 receiveTableEntry(const DasParams& p, int ix, int iz, int e) {
  const DasPixel px = dasPixel(p, ix, iz);
  float excess = 0.0f, weight = 0.0f;
  return rfReceiveTerms(p, px, e, excess, weight) ? make_float2(excess, weight)
                                                  : make_float2(0.0f, 0.0f);
}

// rfDasAccumulateSplit with the receive terms read from the table instead of computed: the
// delays reused across frames (a weight of 0, outside the aperture or too small to count, adds
// nothing either way).
CINEFLOW_HD inline float rfDasAccumulateTabled(const float* rf, const DasParams& p,
                                               const DasPixel& px, const float2* table,
                                               const int* splitBase, const float* splitOffset,
                                               int ix, int iz, int e, float sum) {
  const float2 terms = process::cuda::loadReadOnly(table + receiveTableIndex(p, ix, iz, e));
  if (terms.y == 0.0f) {
    return sum;
  }
  const float partial =
      rfTransmitSum(rf, p, static_cast<float>(px.x), terms.x, splitBase, splitOffset, iz, e);
  return fmaf(terms.y, partial, sum);
}

// I/Q sample k (centre = k * decimation) of one row `in` of `samples` samples: 2 sum_j h[j] x[m]
// p[m] over the taps whose m = centre + j - half lies in the row (p the mixing phasor).
template <class Sample>
CINEFLOW_HD inline float2 demodulateSample(const Sample* in, const float* taps, int tapCount,
                                           const float2* phasors, int samples, int centre) {
  const int half = (tapCount - 1) / 2;
  const int first = process::cuda::maxInt(0, half - centre);
  const int last = process::cuda::minInt(tapCount, samples - centre + half);
  float re = 0.0f;
  float im = 0.0f;
  for (int j = first; j < last; ++j) {
    const int m = centre + j - half;
    const float v = process::cuda::loadReadOnly(taps + j) * static_cast<float>(in[m]);
    const float2 phasor = process::cuda::loadReadOnly(phasors + m);
    re = fmaf(v, phasor.x, re);
    im = fmaf(v, phasor.y, im);
  }
  return make_float2(2.0f * re, 2.0f * im);
}

// Pixel (ix, iz) of the I/Q delay-and-sum: I/Q traces [transmits][elements][samples] at the rate
// of `p`, interpolated linearly, rotated by the carrier's phase over the path (cyclesPerSample =
// f0 / rate), weighted, summed and compounded; returns sum / transmits (complex).
CINEFLOW_HD inline float2 iqDasSum(const float2* iq, double cyclesPerSample, const DasParams& p,
                                   int ix, int iz) {
  const DasPixel px = dasPixel(p, ix, iz);
  const double lastSample = static_cast<double>(p.samples - 1);
  const std::size_t transmitStride = static_cast<std::size_t>(p.elements) * p.samples;
  float sumRe = 0.0f;
  float sumIm = 0.0f;
  for (int e = px.first; e <= px.last; ++e) {
    const double lateral = px.x - p.elementX[e];
    if (!px.inside(lateral)) {
      continue;
    }
    const float weight = receiveWeight(p, static_cast<float>(lateral) * px.inverseHalfAperture);
    const double receive = sqrt(fma(lateral, lateral, px.z * px.z)) * p.samplesPerMetre;
    const float2* trace = iq + static_cast<std::size_t>(e) * p.samples;
    float partialRe = 0.0f;
    float partialIm = 0.0f;
    for (int t = 0; t < p.transmits; ++t) {
      const double path = fma(px.z, p.cosSamples[t], fma(px.x, p.sinSamples[t], receive));
      const double s = path - p.firstSample;
      if (!(s >= 0.0 && s <= lastSample)) {
        continue;
      }
      const int k = process::cuda::minInt(static_cast<int>(s), p.samples - 2);
      const float fraction = static_cast<float>(s - static_cast<double>(k));
      const float2 a = process::cuda::loadReadOnly(trace + t * transmitStride + k);
      const float2 b = process::cuda::loadReadOnly(trace + t * transmitStride + k + 1);
      const float re = fmaf(fraction, b.x - a.x, a.x);
      const float im = fmaf(fraction, b.y - a.y, a.y);
      // The carrier's phase over the path, reduced to one turn in double before sin / cos.
      const double cycles = path * cyclesPerSample;
      const float turn = static_cast<float>(cycles - floor(cycles));
      float sine, cosine;
      process::cuda::sinCosPi(2.0f * turn, &sine, &cosine);
      partialRe += re * cosine - im * sine;
      partialIm += re * sine + im * cosine;
    }
    sumRe = fmaf(weight, partialRe, sumRe);
    sumIm = fmaf(weight, partialIm, sumIm);
  }
  const float scale = 1.0f / static_cast<float>(p.transmits);
  return make_float2(sumRe * scale, sumIm * scale);
}

// Its magnitude: the envelope.
CINEFLOW_HD inline float iqDasPixel(const float2* iq, double cyclesPerSample, const DasParams& p,
                                    int ix, int iz) {
  const float2 sum = iqDasSum(iq, cyclesPerSample, p, ix, iz);
  return hypotf(sum.x, sum.y);
}

}  // namespace cineflow::ultrasound::cuda

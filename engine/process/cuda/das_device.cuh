#pragma once
// Device helpers shared by the RF and I/Q delay-and-sum kernels (beamform.cu, iq_beamform.cu).

#include "process/cuda/stage_kernels.hpp"

namespace cineflow::process::cuda {

// The elements [first, last] that may lie within the receive aperture of a pixel at lateral x:
// all of them, or on a uniform array only those near it (each still checked against the aperture).
__device__ inline void apertureElements(const DasParams& p, float x, float halfAperture, int& first,
                                        int& last) {
  first = 0;
  last = p.elements - 1;
  if (p.elementPitch > 0) {
    const float firstX = static_cast<float>(p.elementX[0]);
    first = max(0, static_cast<int>(ceilf((x - halfAperture - firstX) / p.elementPitch)) - 1);
    last = min(p.elements - 1,
               static_cast<int>(floorf((x + halfAperture - firstX) / p.elementPitch)) + 1);
  }
}

// The receive weight at u = (x - x_e) / halfAperture, |u| < 1 (ImagingParams::apodisation).
__device__ inline float receiveWeight(const DasParams& p, float u) {
  return p.rectangular ? 1.0f : 0.5f * (1.0f + cospif(u));
}

}  // namespace cineflow::process::cuda

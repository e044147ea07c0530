#pragma once
// The delay-and-sum geometry of the CUDA kernels (process/cuda/beamform.cu, iq_beamform.cu),
// passed to them by value. Host code, compiled with or without CUDA, so that the kernels' device
// functions can be checked on the host (process/cuda/das_device.hpp).

#include <vector>

#include "acquire/frame.hpp"
#include "ultrasound/imaging_params.hpp"

namespace cineflow::ultrasound {

// Passed to a kernel by value it lands in the constant bank, as small read-only tables that every
// thread reads uniformly should (kernel parameters up to 32 KiB on sm_70+).
struct DasParams {
  static constexpr int kMaxElements = 1024;
  static constexpr int kMaxTransmits = 64;
  int transmits, elements, samples, nx, nz;
  // 1 / (2 fNumber). Whether an element is inside a pixel's aperture is decided in double, as the
  // CPU kernels do: with rectangular weights (1 up to the edge) a float decision would count
  // pixel-element pairs at the edge differently.
  double halfApertureScale;
  int rectangular;     // 1: uniform receive weights, 0: Hann (ImagingParams::apodisation)
  float elementPitch;  // > 0 when elements are uniformly spaced (aperture by index range)
  // Delays are computed in double: a float32 sample position near 2000 is only good to 1e-4
  // samples, which shows as a 4e-4 relative error against the double-precision CPU oracle.
  double x0, dx, z0, dz;
  double samplesPerMetre;            // rate / c
  double firstSample;                // t0 * rate
  double cosSamples[kMaxTransmits];  // cos(a_t) rate / c
  double sinSamples[kMaxTransmits];  // sin(a_t) rate / c
  double elementX[kMaxElements];
};

// The split delays of every image row and transmit (ultrasound/transmit_split.hpp) for the
// split-float kernels, [t * nz + iz].
void makeTransmitSplitTables(const DasParams& p, std::vector<int>& base,
                             std::vector<float>& offset);

// The geometry for traces of `samples` samples at `sampleRateHz` (the RF rate, or the I/Q rate
// after decimation); acq and imaging must be validated. Throws std::invalid_argument when the
// acquisition exceeds the table sizes or has fewer than 2 samples.
DasParams makeDasParams(const acquire::AcquisitionParams& acq, const ImagingParams& imaging,
                        double sampleRateHz, int samples);

}  // namespace cineflow::ultrasound

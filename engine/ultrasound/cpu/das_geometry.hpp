#pragma once
// The geometry tables shared by the CPU delay-and-sum kernels (RF and I/Q): pixel coordinates,
// element positions and the per-transmit plane-wave terms, all in samples of the traces the
// kernel reads (the RF rate, or the I/Q rate after decimation).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numbers>
#include <utility>
#include <vector>

#include "acquire/frame.hpp"
#include "compute/cpu/parallel_for.hpp"
#include "ultrasound/imaging_params.hpp"
#include "ultrasound/transmit_split.hpp"

namespace cineflow::ultrasound::cpu {

// Hann weight 0.5 (1 + cos(pi u)) = cos^2(pi u / 2) for |u| < 1. A Taylor polynomial of cos on
// [-pi/2, pi/2] (error < 1e-8) instead of std::cos keeps the pixel loop vectorisable; the weight
// is evaluated for every pixel-element pair, where std::cos was the largest cost.
inline double hannWeight(double u) {
  const double y = u * (std::numbers::pi / 2);
  const double y2 = y * y;
  const double c =
      1.0 + y2 * (-1.0 / 2 +
                  y2 * (1.0 / 24 +
                        y2 * (-1.0 / 720 + y2 * (1.0 / 40320 +
                                                 y2 * (-1.0 / 3628800 + y2 * (1.0 / 479001600))))));
  return c * c;
}

struct DasGeometry {
  // acq and imaging must already be validated; `sampleRateHz` and `samples` describe the traces.
  DasGeometry(const acquire::AcquisitionParams& acq, const ImagingParams& imaging,
              double sampleRateHz, std::size_t samples);

  // The receive weight at u = (x - xe) / halfAperture, |u| < 1.
  double receiveWeight(double u) const { return rectangular ? 1.0 : hannWeight(u); }
  // Calls rowBody(row) for every image row, spread over the CPU backend's pool. Deep rows see a
  // wider aperture and cost more: small chunks keep the threads balanced.
  template <class RowBody>
  void forEachRow(RowBody rowBody) const;
  // Zeroes image row `row` of `image` ([nz][nx]) and returns it with its depth and receive half
  // aperture, which is 0 at the surface (no element contributes).
  struct Row {
    float* out;
    double z, halfAperture;
  };
  Row startRow(std::size_t row, float* image) const {
    const std::size_t nx = pixelX.size();
    float* out = image + row * nx;
    std::fill(out, out + nx, 0.0f);
    return {out, pixelZ[row], pixelZ[row] * halfApertureScale};
  }
  // The pixels [begin, end) of a row whose |x - xe| < halfAperture: a contiguous run.
  std::pair<std::size_t, std::size_t> apertureRun(double xe, double halfAperture) const;

  std::size_t transmits, elements, samples;
  double x0, dx;
  double samplesPerMetre;    // rate / c: converts a path length into samples
  double firstSample;        // t0 * rate
  double halfApertureScale;  // 1 / (2 fNumber)
  bool rectangular;          // ImagingParams::apodisation
  std::vector<double> pixelX, pixelZ, elementX;
  std::vector<float> pixelXFloat;              // pixelX in float, for the float kernels
  std::vector<double> cosSamples, sinSamples;  // cos(a_t), sin(a_t) times rate / c
  std::vector<float> sinSamplesFloat;
  std::vector<TransmitSplit> splits;  // [row][transmit] (ultrasound/transmit_split.hpp)

  const TransmitSplit* splitsOfRow(std::size_t row) const {
    return splits.data() + row * transmits;
  }
};

template <class RowBody>
void DasGeometry::forEachRow(RowBody rowBody) const {
  const std::size_t grain =
      std::max<std::size_t>(1, pixelZ.size() / (16 * compute::cpu::parallelism()));
  auto rows = [&](std::size_t begin, std::size_t end) {
    for (std::size_t row = begin; row < end; ++row) {
      rowBody(row);
    }
  };
  compute::cpu::parallelFor(pixelZ.size(), grain, rows);
}

}  // namespace cineflow::ultrasound::cpu

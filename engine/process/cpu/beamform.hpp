#pragma once
// CPU backend of DasBeamformer (process/beamform.hpp holds the contract).

#include <cstddef>
#include <vector>

#include "acquire/frame.hpp"
#include "compute/backend.hpp"
#include "process/imaging_params.hpp"

namespace cineflow::process::cpu {

class DasKernel {
 public:
  // Precomputes the coordinate and angle tables; acq and imaging must already be validated.
  DasKernel(const acquire::AcquisitionParams& acq, const ImagingParams& imaging);
  // Enqueues the beamforming of `rf` into `image` (host-accessible backend memory); the task runs
  // parallelFor over image rows on the stream's thread.
  void enqueue(compute::Stream& stream, const float* rf, float* image) const;
  // Beamforms synchronously on the calling thread (and the pool): the body of the stream task.
  void run(const float* rf, float* image) const;

 private:
  void beamformRow(std::size_t row, const float* rf, float* image) const;

  std::size_t transmits_;
  std::size_t elements_;
  std::size_t samples_;
  double x0_, dx_;
  double samplesPerMetre_;    // fs / c: converts a path length into samples
  double firstSample_;        // t0 * fs
  double halfApertureScale_;  // 1 / (2 fNumber)
  std::vector<double> pixelX_;
  std::vector<double> pixelZ_;
  std::vector<double> elementX_;
  std::vector<double> cosSamples_;  // cos(a_t) * fs / c
  std::vector<double> sinSamples_;  // sin(a_t) * fs / c
};

}  // namespace cineflow::process::cpu

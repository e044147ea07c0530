#pragma once
// CPU backend of DasBeamformer (process/beamform.hpp holds the contract).

#include <cstddef>
#include <vector>

#include "acquire/frame.hpp"
#include "compute/backend.hpp"
#include "ultrasound/cpu/das_geometry.hpp"
#include "ultrasound/imaging_params.hpp"

namespace cineflow::process::cpu {

class DasKernel {
 public:
  // Precomputes the coordinate and angle tables; acq and imaging must already be validated.
  // The traces hold `samples` samples at `sampleRateHz` (the bandpass's output).
  DasKernel(const acquire::AcquisitionParams& acq, const ImagingParams& imaging,
            double sampleRateHz, std::size_t samples);
  // Enqueues the beamforming of `rf` into `image` (host-accessible backend memory); the task runs
  // parallelFor over image rows on the stream's thread.
  void enqueue(compute::Stream& stream, const float* rf, float* image) const;
  // Beamforms synchronously on the calling thread (and the pool): the body of the stream task.
  void run(const float* rf, float* image) const;

 private:
  void beamformRow(std::size_t row, const float* rf, float* image) const;

  DasGeometry g_;  // at the RF rate fs
};

}  // namespace cineflow::process::cpu

#pragma once
// Delay-and-sum beamforming of plane-wave RF with coherent compounding (docs/ultrasound.md).
//
// Contract
//   input   rf float32 [transmits][elements][samples] (bandpassed RF at `sampleRateHz`: the
//           bandpass's output, interpolated), device memory.
//   output  image float32 [nz][nx] (x fastest) on ImagingParams::geometry(), device memory;
//           beamformed RF (signed, not yet detected); must not overlap the input.
//   formula image(x, z) = (1/T) sum_t sum_e w(x, z, e) * rf_t,e((tau - t0) * rate), where
//             tau = (z cos a_t + x sin a_t + sqrt((x - x_e)^2 + z^2)) / c,
//           rf_t,e(s) interpolates linearly between samples floor(s) and floor(s) + 1 and is 0
//           for s outside [0, samples - 1]; the receive apodisation covers the half aperture
//           h = z / (2 fNumber), as a Hann window (ImagingParams::apodisation, the default)
//             w = 0.5 (1 + cos(pi (x - x_e) / h)) for |x - x_e| < h, else 0,
//           or rectangular: w = 1 for |x - x_e| < h, else 0.
//   stream  enqueue() only enqueues work on `stream`: it never allocates or synchronises. The
//           beamformer must outlive the enqueued work and must not be reconfigured meanwhile.

#include <memory>
#include <string>
#include <vector>

#include "acquire/frame.hpp"
#include "compute/backend.hpp"
#include "compute/buffer.hpp"
#include "compute/twin.hpp"
#include "ultrasound/imaging_params.hpp"

namespace cineflow::ultrasound {

namespace cpu {
class DasKernel;
}
namespace cuda {
class DasKernel;
}

class DasBeamformer {
 public:
  DasBeamformer();
  ~DasBeamformer();
  DasBeamformer(DasBeamformer&&) noexcept;
  DasBeamformer& operator=(DasBeamformer&&) noexcept;
  DasBeamformer(const DasBeamformer&) = delete;
  DasBeamformer& operator=(const DasBeamformer&) = delete;

  // Builds the geometry tables for traces of `samples` samples at `sampleRateHz` (the bandpass's
  // outputSamples() and outputRateHz()). Throws std::invalid_argument for invalid parameters
  // (fewer than two samples included), std::logic_error for a backend without this stage.
  void configure(compute::Backend& backend, const acquire::AcquisitionParams& acq,
                 const ImagingParams& imaging, double sampleRateHz, std::size_t samples);
  // Throws std::invalid_argument (before enqueuing anything) for spans of the wrong size.
  void enqueue(compute::Stream& stream, compute::DeviceSpan<const float> rf,
               compute::DeviceSpan<float> image) const;

  const process::ImageGeometry& geometry() const { return geometry_; }
  std::size_t rfValues() const { return rfValues_; }

  // Implementations of this contract on the configured backend (tune/tuning.hpp): on the CPU one
  // per instruction set this machine has, on CUDA launch shapes. Each is checked against the
  // reference by test_beamform (CPU) and test_cuda_stages (CUDA). Variant 0 is the default.
  std::vector<std::string> variants() const;
  void selectVariant(std::size_t index);  // between frames
  std::size_t variant() const;

 private:
  process::ImageGeometry geometry_;
  std::size_t rfValues_ = 0;
  compute::Twin<cpu::DasKernel, cuda::DasKernel> kernel_;
};

}  // namespace cineflow::ultrasound

#pragma once
// Delay-and-sum beamforming of plane-wave I/Q with phase rotation and coherent compounding, then
// detection (docs/ultrasound.md): the second stage of the I/Q chain.
//
// Contract
//   input   iq complex float32 [transmits][elements][S][2] (IqDemodulator's output: S samples at
//           the rate fs / D from t0), device memory.
//   output  envelope float32 [nz][nx] (x fastest) on ImagingParams::geometry(), device memory;
//           must not overlap the input. Optionally also the complex sum before the magnitude,
//           complex float32 [nz][nx] (interleaved re, im).
//   formula envelope(x, z) = |(1/T) sum_t sum_e w(x, z, e) iq_t,e((tau - t0) fs / D)
//                              exp(j 2 pi f0 tau)|,
//           with tau, the linear interpolation (0 outside [0, S - 1], applied to I and Q) and the
//           receive apodisation w (Hann or rectangular) of the RF beamformer
//           (process/beamform.hpp). The input is 8-byte aligned (complex float).
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
class IqDasKernel;
}
namespace cuda {
class IqDasKernel;
}

class IqBeamformer {
 public:
  IqBeamformer();
  ~IqBeamformer();
  IqBeamformer(IqBeamformer&&) noexcept;
  IqBeamformer& operator=(IqBeamformer&&) noexcept;
  IqBeamformer(const IqBeamformer&) = delete;
  IqBeamformer& operator=(const IqBeamformer&) = delete;

  // `iqSamples`: S, the demodulator's samples per trace. Throws std::invalid_argument for invalid
  // parameters, std::logic_error for a backend without this stage.
  void configure(compute::Backend& backend, const acquire::AcquisitionParams& acq,
                 const ImagingParams& imaging, std::size_t iqSamples);
  // Throws std::invalid_argument (before enqueuing anything) for spans of the wrong size.
  // `beamformed`, when not empty, also receives the complex sum before detection, [nz][nx][2]
  // (colour Doppler's input).
  void enqueue(compute::Stream& stream, compute::DeviceSpan<const float> iq,
               compute::DeviceSpan<float> envelope,
               compute::DeviceSpan<float> beamformed = {}) const;

  // Implementations on the configured backend (tune/tuning.hpp), as DasBeamformer's: the CPU's
  // instruction sets, or CUDA block sizes. Variant 0 is the default.
  std::vector<std::string> variants() const;
  void selectVariant(std::size_t index);  // between frames
  std::size_t variant() const;

  const process::ImageGeometry& geometry() const { return geometry_; }

 private:
  process::ImageGeometry geometry_;
  std::size_t iqFloats_ = 0;
  compute::Twin<cpu::IqDasKernel, cuda::IqDasKernel> kernel_;
};

}  // namespace cineflow::ultrasound

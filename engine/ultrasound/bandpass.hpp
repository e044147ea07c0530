#pragma once
// Bandpass FIR along fast time, the first stage of the RF chain (docs/ultrasound.md), which also
// interpolates the RF by U = ImagingParams::rfUpsamplingFor(acq) so that the beamformer's linear
// interpolation is accurate (docs/ultrasound.md).
//
// Contract
//   input   raw frame [transmits][elements][samples], int16 or float32 (the configured type),
//           row-major, samples fastest; device memory of the configured backend.
//   output  float32 [transmits][elements][samples * U], row-major; output m is the filtered RF at
//           t0 + m / (U fs) (output n U is at input n's time: zero phase); device memory; must
//           not overlap the input.
//   filter  the input upsampled by U with zeros, through a zero-phase "same" convolution:
//             y[m] = sum_k h[k] u[m + k - (L-1)/2],  u[n U] = x[n], u elsewhere 0,
//           x outside [0, samples) taken as 0, L = U (firTaps - 1) + 1 (the same span in time as
//           firTaps at the recorded rate), h = U designBandpassTaps(L, low f0, high f0, U fs) for
//           {low, high} = ImagingParams::rfBandFor(acq), the high edge clamped to 0.98 fs / 2 (the
//           recorded rate's Nyquist: the upsampling's images above it are stopped). Computed by
//           phases (splitPolyphase): each output costs firTaps multiply-adds.
//   stream  enqueue() only enqueues work on `stream`: it never allocates or synchronises. The
//           filter object must outlive the enqueued work and must not be reconfigured while
//           work is in flight.

#include <cstddef>
#include <memory>
#include <vector>

#include "acquire/frame.hpp"
#include "compute/backend.hpp"
#include "compute/buffer.hpp"
#include "compute/twin.hpp"
#include "ultrasound/fir_design.hpp"
#include "ultrasound/imaging_params.hpp"

namespace cineflow::ultrasound {

namespace cpu {
class BandpassKernel;
}
namespace cuda {
class BandpassKernel;
}

class BandpassFilter {
 public:
  BandpassFilter();
  ~BandpassFilter();
  BandpassFilter(BandpassFilter&&) noexcept;
  BandpassFilter& operator=(BandpassFilter&&) noexcept;
  BandpassFilter(const BandpassFilter&) = delete;
  BandpassFilter& operator=(const BandpassFilter&) = delete;

  // Designs the taps and sizes the backend's state. Throws std::invalid_argument for invalid
  // acquisition or imaging parameters, std::logic_error for a backend without this stage.
  void configure(compute::Backend& backend, const acquire::AcquisitionParams& acq,
                 acquire::SampleType sampleType, const ImagingParams& imaging);
  // Throws std::invalid_argument (before enqueuing anything) when the spans do not hold exactly
  // one frame, or std::logic_error when not configured.
  void enqueue(compute::Stream& stream, compute::DeviceSpan<const std::byte> raw,
               compute::DeviceSpan<float> out) const;

  // The whole filter h at the output rate (see the contract).
  const std::vector<float>& taps() const { return taps_; }
  std::size_t rows() const { return rows_; }
  std::size_t samples() const { return samples_; }  // input samples per row
  int upsampling() const { return upsampling_; }
  std::size_t outputSamples() const { return samples_ * static_cast<std::size_t>(upsampling_); }
  double outputRateHz() const { return outputRateHz_; }

 private:
  acquire::SampleType sampleType_ = acquire::SampleType::Int16;
  std::size_t rows_ = 0;  // transmits * elements
  std::size_t samples_ = 0;
  int upsampling_ = 1;
  double outputRateHz_ = 0;
  std::vector<float> taps_;
  compute::Twin<cpu::BandpassKernel, cuda::BandpassKernel> kernel_;
};

}  // namespace cineflow::ultrasound

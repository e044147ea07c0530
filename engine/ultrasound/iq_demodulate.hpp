#pragma once
// I/Q demodulation, the first stage of the I/Q chain (docs/ultrasound.md): down-mixing by the
// carrier, a low-pass filter and optional decimation along fast time.
//
// Contract
//   input   raw frame [transmits][elements][samples], int16 or float32 (the configured type),
//           row-major, samples fastest; device memory of the configured backend.
//   output  complex float32 [transmits][elements][iqSamples()][2] (re, im interleaved); device
//           memory; must not overlap the input. Output k is the input's sample n = k D (D the
//           decimation), taken at t0 + k D / fs.
//   formula iq[k] = 2 sum_j h[j] x[m] exp(-j 2 pi f0 (t0 + m / fs)),  m = k D + j - (L - 1) / 2,
//           x[m] = 0 outside [0, samples); h = designLowpassTaps(L, B / 2, fs) with
//           B = ImagingParams::iqBandwidthFor(acq) f0 and L = lowpassTapsFor(B / 2, fs). The
//           factor 2 keeps |iq| equal to the RF's envelope. The phasor is evaluated at the true
//           sample times, so bandpass-sampled RF (fs < 2 f0) demodulates like any other.
//   stream  enqueue() only enqueues work on `stream`: it never allocates or synchronises. The
//           demodulator must outlive the enqueued work and must not be reconfigured meanwhile.

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
class IqDemodulateKernel;
}
namespace cuda {
class IqDemodulateKernel;
}

// exp(-j 2 pi f0 (t0 + n / fs)) for n in [0, samples), interleaved (re, im): the mixing phasor.
// Computed in double (the phase is reduced to one turn before the float conversion).
std::vector<float> mixingPhasors(const acquire::AcquisitionParams& acq);

class IqDemodulator {
 public:
  IqDemodulator();
  ~IqDemodulator();
  IqDemodulator(IqDemodulator&&) noexcept;
  IqDemodulator& operator=(IqDemodulator&&) noexcept;
  IqDemodulator(const IqDemodulator&) = delete;
  IqDemodulator& operator=(const IqDemodulator&) = delete;

  // Designs the filter and the phasor table and sizes the backend's state. Throws
  // std::invalid_argument for invalid acquisition or imaging parameters, std::logic_error for a
  // backend without this stage.
  void configure(compute::Backend& backend, const acquire::AcquisitionParams& acq,
                 acquire::SampleType sampleType, const ImagingParams& imaging);
  // Throws std::invalid_argument (before enqueuing anything) when the spans do not hold exactly
  // one frame, or std::logic_error when not configured.
  void enqueue(compute::Stream& stream, compute::DeviceSpan<const std::byte> raw,
               compute::DeviceSpan<float> iq) const;

  const std::vector<float>& taps() const { return taps_; }
  std::size_t rows() const { return rows_; }
  std::size_t iqSamples() const { return iqSamples_; }
  std::size_t iqFloats() const { return rows_ * iqSamples_ * 2; }  // the output's floats

 private:
  acquire::SampleType sampleType_ = acquire::SampleType::Int16;
  std::size_t rows_ = 0;  // transmits * elements
  std::size_t samples_ = 0;
  std::size_t iqSamples_ = 0;
  std::vector<float> taps_;
  compute::Twin<cpu::IqDemodulateKernel, cuda::IqDemodulateKernel> kernel_;
};

}  // namespace cineflow::ultrasound

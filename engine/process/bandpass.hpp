#pragma once
// Bandpass FIR along fast time, the first stage of the RF chain (DESIGN.md §4).
//
// Contract
//   input   raw frame [transmits][elements][samples], int16 or float32 (the configured type),
//           row-major, samples fastest; device memory of the configured backend.
//   output  float32, same shape and layout; device memory; must not overlap the input.
//   filter  zero-phase "same" convolution per row:
//             y[n] = sum_k h[k] x[n + k - (L-1)/2],  x outside [0, samples) taken as 0,
//           h = designBandpassTaps(firTaps, bandLowRel f0, bandHighRel f0, fs).
//   stream  enqueue() only enqueues work on `stream`: it never allocates or synchronises. The
//           filter object must outlive the enqueued work and must not be reconfigured while
//           work is in flight.

#include <cstddef>
#include <memory>
#include <vector>

#include "acquire/frame.hpp"
#include "compute/backend.hpp"
#include "compute/buffer.hpp"
#include "process/fir_design.hpp"
#include "process/imaging_params.hpp"

namespace cineflow::process {

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

  const std::vector<float>& taps() const { return taps_; }
  std::size_t rows() const { return rows_; }
  std::size_t samples() const { return samples_; }

 private:
  compute::BackendKind kind_ = compute::BackendKind::Cpu;
  acquire::SampleType sampleType_ = acquire::SampleType::Int16;
  std::size_t rows_ = 0;  // transmits * elements
  std::size_t samples_ = 0;
  std::vector<float> taps_;
  std::unique_ptr<cpu::BandpassKernel> cpu_;
#if CINEFLOW_HAVE_CUDA
  std::unique_ptr<cuda::BandpassKernel> cuda_;
#endif
};

}  // namespace cineflow::process

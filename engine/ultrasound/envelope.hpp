#pragma once
// Envelope detection: magnitude of the analytic signal along depth (docs/ultrasound.md).
//
// Contract
//   input   beamformed RF float32 [nz][nx] (x fastest), device memory.
//   output  envelope float32 [nz][nx], device memory; may be the input itself (in place), must
//           not otherwise overlap it.
//   formula per column, with N = nz: X = DFT_N(x); Y[k] = X[k] H[k] with H[0] = 1,
//           H[k] = 2 for 1 <= k < (N+1)/2, H[N/2] = 1 when N is even, else 0;
//           envelope = |IDFT_N(Y)| (scipy.signal.hilbert, then abs). No windowing or padding:
//           the DFT is circular, so the top and bottom few rows see the other end.
//   stream  enqueue() only enqueues work on `stream`: it never allocates or synchronises. The
//           detector must outlive the enqueued work and must not be reconfigured meanwhile; its
//           scratch is shared by its enqueues, so order them (one stream, or events).

#include <memory>
#include <string>
#include <vector>

#include "compute/backend.hpp"
#include "compute/buffer.hpp"
#include "compute/twin.hpp"
#include "ultrasound/imaging_params.hpp"

namespace cineflow::ultrasound {

namespace cpu {
class EnvelopeKernel;
}
namespace cuda {
class EnvelopeKernel;
}

class EnvelopeDetector {
 public:
  EnvelopeDetector();
  ~EnvelopeDetector();
  EnvelopeDetector(EnvelopeDetector&&) noexcept;
  EnvelopeDetector& operator=(EnvelopeDetector&&) noexcept;
  EnvelopeDetector(const EnvelopeDetector&) = delete;
  EnvelopeDetector& operator=(const EnvelopeDetector&) = delete;

  // Makes the FFT plans and scratch. Throws std::invalid_argument for an empty geometry,
  // std::logic_error for a backend without this stage.
  void configure(compute::Backend& backend, const process::ImageGeometry& geometry);
  // Throws std::invalid_argument (before enqueuing anything) for spans of the wrong size.
  void enqueue(compute::Stream& stream, compute::DeviceSpan<const float> rf,
               compute::DeviceSpan<float> envelope) const;

  const process::ImageGeometry& geometry() const { return geometry_; }

  // Implementations of this contract on the configured backend (tune/tuning.hpp): the FFT
  // ("fft" with FFTW on the CPU, "cufft" on CUDA) and "direct", the circular convolution with the
  // Hilbert kernel's taps (ultrasound/hilbert_taps.hpp). Each is checked against the direct DFT
  // by test_envelope (CPU) and against the CPU twin by test_cuda_stages (CUDA). 0 is the default.
  std::vector<std::string> variants() const;
  void selectVariant(std::size_t index);  // between frames
  std::size_t variant() const;

 private:
  process::ImageGeometry geometry_;
  compute::Twin<cpu::EnvelopeKernel, cuda::EnvelopeKernel> kernel_;
};

}  // namespace cineflow::ultrasound

#pragma once
// CPU backend of EnvelopeDetector (process/envelope.hpp holds the contract): on FFTW ("fft"), or
// as a direct circular convolution with the DFT's Hilbert kernel ("direct", hilbert_taps.hpp).

#include <fftw3.h>

#include <cstddef>
#include <string>
#include <vector>

#include "compute/backend.hpp"
#include "process/cpu/fftw_handles.hpp"
#include "ultrasound/hilbert_taps.hpp"

namespace cineflow::ultrasound::cpu {

class EnvelopeKernel {
 public:
  // Plans the depth-length FFTs and allocates one scratch set per pool thread.
  EnvelopeKernel(std::size_t nz, std::size_t nx);
  // Enqueues the detection of `rf` into `envelope` (host-accessible backend memory; may be the
  // same array); the task runs parallelFor over columns on the stream's thread.
  void enqueue(compute::Stream& stream, const float* rf, float* envelope) const;
  // Detects synchronously on the calling thread (and the pool): the body of the stream task.
  void run(const float* rf, float* envelope) const;

  // "fft": per column, FFTW's transform, the analytic filter and the inverse, O(nz log nz).
  // "direct": the imaginary part of the analytic signal as the circular convolution of every
  // row with the Hilbert kernel's taps (nz / 2 of them for even nz), summed over whole rows so
  // that it vectorises across x, O(nz^2): faster for short columns. Variant 0 is the default.
  static std::vector<std::string> variantNames() { return {"fft", "direct"}; }
  // Between frames. The first selection of "direct" allocates its image-sized scratch.
  void selectVariant(std::size_t index);
  std::size_t variant() const { return variant_; }

 private:
  struct Scratch {
    process::cpu::FftwArray<float> column;  // one depth column, gathered from the [z][x] image
    process::cpu::FftwArray<fftwf_complex> analytic;  // spectrum, then analytic signal (in place)
  };
  void detectColumn(std::size_t x, const Scratch& scratch, const float* rf, float* envelope) const;
  void runDirect(const float* rf, float* envelope) const;

  std::size_t nz_;
  std::size_t nx_;
  std::size_t grain_;  // columns per chunk; chunk begin / grain_ picks the chunk's scratch
  std::vector<Scratch> scratch_;
  process::cpu::FftwPlan forward_;  // r2c, column -> analytic[0 .. nz/2]
  process::cpu::FftwPlan inverse_;  // c2c backward, in place on analytic
  std::size_t variant_ = 0;
  HilbertTaps taps_;  // "direct": the kernel's nonzero taps
  // "direct": the analytic signal's imaginary part, [nz][nx]; scratch of every run()
  mutable std::vector<float> quadrature_;
};

}  // namespace cineflow::ultrasound::cpu

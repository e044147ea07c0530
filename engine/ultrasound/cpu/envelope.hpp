#pragma once
// CPU backend of EnvelopeDetector (process/envelope.hpp holds the contract), on FFTW.

#include <fftw3.h>

#include <cstddef>
#include <vector>

#include "compute/backend.hpp"
#include "process/cpu/fftw_handles.hpp"

namespace cineflow::process::cpu {

class EnvelopeKernel {
 public:
  // Plans the depth-length FFTs and allocates one scratch set per pool thread.
  EnvelopeKernel(std::size_t nz, std::size_t nx);
  // Enqueues the detection of `rf` into `envelope` (host-accessible backend memory; may be the
  // same array); the task runs parallelFor over columns on the stream's thread.
  void enqueue(compute::Stream& stream, const float* rf, float* envelope) const;
  // Detects synchronously on the calling thread (and the pool): the body of the stream task.
  void run(const float* rf, float* envelope) const;

 private:
  struct Scratch {
    FftwArray<float> column;            // one depth column, gathered from the [z][x] image
    FftwArray<fftwf_complex> analytic;  // spectrum, then analytic signal (in place)
  };
  void detectColumn(std::size_t x, const Scratch& scratch, const float* rf, float* envelope) const;

  std::size_t nz_;
  std::size_t nx_;
  std::size_t grain_;  // columns per chunk; chunk begin / grain_ picks the chunk's scratch
  std::vector<Scratch> scratch_;
  FftwPlan forward_;  // r2c, column -> analytic[0 .. nz/2]
  FftwPlan inverse_;  // c2c backward, in place on analytic
};

}  // namespace cineflow::process::cpu

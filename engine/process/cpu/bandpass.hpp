#pragma once
// CPU backend of BandpassFilter (process/bandpass.hpp holds the contract).

#include <cstddef>
#include <vector>

#include "acquire/frame.hpp"
#include "compute/backend.hpp"

namespace cineflow::process::cpu {

class BandpassKernel {
 public:
  BandpassKernel(std::vector<float> taps, std::size_t rows, std::size_t samples,
                 acquire::SampleType sampleType);
  // Enqueues the filtering of rows() x samples() values at `raw` into `out` (host-accessible
  // backend memory); the task runs parallelFor over rows on the stream's thread.
  void enqueue(compute::Stream& stream, const std::byte* raw, float* out) const;
  // Filters synchronously on the calling thread (and the pool): the body of the stream task.
  void run(const std::byte* raw, float* out) const;

 private:
  std::vector<float> taps_;
  std::size_t rows_;
  std::size_t samples_;
  acquire::SampleType sampleType_;
};

}  // namespace cineflow::process::cpu

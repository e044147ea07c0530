#pragma once
// CPU backend of BandpassFilter (process/bandpass.hpp holds the contract).

#include <cstddef>

#include "acquire/frame.hpp"
#include "compute/backend.hpp"
#include "ultrasound/fir_design.hpp"

namespace cineflow::ultrasound::cpu {

class BandpassKernel {
 public:
  // `fir`: the filter split into its phases (its factor is the interpolation factor U).
  BandpassKernel(PolyphaseFir fir, std::size_t rows, std::size_t samples,
                 acquire::SampleType sampleType);
  // Enqueues the filtering of rows() x samples() values at `raw` into rows() x samples() U
  // values at `out` (host-accessible backend memory); the task runs parallelFor over rows on the
  // stream's thread.
  void enqueue(compute::Stream& stream, const std::byte* raw, float* out) const;
  // Filters synchronously on the calling thread (and the pool): the body of the stream task.
  void run(const std::byte* raw, float* out) const;

 private:
  template <class Sample>
  void runRows(const Sample* in, float* out) const;

  PolyphaseFir fir_;
  std::size_t rows_;
  std::size_t samples_;
  acquire::SampleType sampleType_;
};

}  // namespace cineflow::ultrasound::cpu

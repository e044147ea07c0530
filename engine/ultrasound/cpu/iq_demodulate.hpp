#pragma once
// CPU backend of IqDemodulator (process/iq_demodulate.hpp holds the contract).

#include <cstddef>
#include <vector>

#include "acquire/frame.hpp"
#include "compute/backend.hpp"

namespace cineflow::ultrasound::cpu {

struct IqDemodulateShape {
  std::size_t rows;        // transmits * elements
  std::size_t samples;     // input samples per row
  std::size_t iqSamples;   // output samples per row: ceil(samples / decimation)
  std::size_t decimation;  // D
};

class IqDemodulateKernel {
 public:
  // `phasors`: mixingPhasors(acq), 2 * samples floats.
  IqDemodulateKernel(std::vector<float> taps, std::vector<float> phasors, IqDemodulateShape shape,
                     acquire::SampleType sampleType);
  // Enqueues the demodulation of one frame at `raw` into `iq` (host-accessible backend memory);
  // the task runs parallelFor over rows on the stream's thread.
  void enqueue(compute::Stream& stream, const std::byte* raw, float* iq) const;
  // Demodulates synchronously on the calling thread (and the pool): the body of the stream task.
  void run(const std::byte* raw, float* iq) const;

 private:
  template <class Sample>
  void runRows(const Sample* raw, float* iq) const;

  std::vector<float> taps_;
  std::vector<float> phasors_;
  IqDemodulateShape shape_;
  acquire::SampleType sampleType_;
};

}  // namespace cineflow::ultrasound::cpu

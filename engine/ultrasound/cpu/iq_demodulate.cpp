#include "ultrasound/cpu/iq_demodulate.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "compute/cpu/parallel_for.hpp"

namespace cineflow::ultrasound::cpu {

IqDemodulateKernel::IqDemodulateKernel(std::vector<float> taps, std::vector<float> phasors,
                                       IqDemodulateShape shape, acquire::SampleType sampleType)
    : taps_(std::move(taps)),
      phasors_(std::move(phasors)),
      shape_(shape),
      sampleType_(sampleType) {}

void IqDemodulateKernel::enqueue(compute::Stream& stream, const std::byte* raw, float* iq) const {
  stream.enqueueHost([this, raw, iq] { run(raw, iq); });
}

void IqDemodulateKernel::run(const std::byte* raw, float* iq) const {
  if (sampleType_ == acquire::SampleType::Int16) {
    runRows(reinterpret_cast<const std::int16_t*>(raw), iq);
  } else {
    runRows(reinterpret_cast<const float*>(raw), iq);
  }
}

template <class Sample>
void IqDemodulateKernel::runRows(const Sample* raw, float* iq) const {
  const auto samples = static_cast<std::ptrdiff_t>(shape_.samples);
  const auto tapCount = static_cast<std::ptrdiff_t>(taps_.size());
  const std::ptrdiff_t half = (tapCount - 1) / 2;
  auto body = [&](std::size_t begin, std::size_t end) {
    for (std::size_t row = begin; row < end; ++row) {
      const Sample* in = raw + row * shape_.samples;
      float* out = iq + row * shape_.iqSamples * 2;
      for (std::size_t k = 0; k < shape_.iqSamples; ++k) {
        const auto centre = static_cast<std::ptrdiff_t>(k * shape_.decimation);
        // The taps whose sample m = centre + j - half lies within the row.
        const std::ptrdiff_t first = std::max<std::ptrdiff_t>(0, half - centre);
        const std::ptrdiff_t last = std::min(tapCount, samples - centre + half);
        float re = 0.0f;
        float im = 0.0f;
        for (std::ptrdiff_t j = first; j < last; ++j) {
          const std::ptrdiff_t m = centre + j - half;
          const float v = taps_[static_cast<std::size_t>(j)] * static_cast<float>(in[m]);
          re += v * phasors_[static_cast<std::size_t>(2 * m)];
          im += v * phasors_[static_cast<std::size_t>(2 * m + 1)];
        }
        out[2 * k] = 2.0f * re;
        out[2 * k + 1] = 2.0f * im;
      }
    }
  };
  compute::cpu::parallelFor(shape_.rows, 0, body);
}

}  // namespace cineflow::ultrasound::cpu

#include "process/cpu/bandpass.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "compute/cpu/parallel_for.hpp"

namespace cineflow::process::cpu {
namespace {

// One row of y[n] = sum_k h[k] x[n + k - half]. The tap loop is outside so that the inner loop
// is a plain multiply-add over contiguous samples, which the compiler vectorises (also for the
// int16 -> float conversion); the row of `out` stays in L1 across taps.
template <class Sample>
void filterRow(const float* taps, std::ptrdiff_t tapCount, const Sample* in, float* out,
               std::ptrdiff_t samples) {
  std::fill(out, out + samples, 0.0f);
  const std::ptrdiff_t half = (tapCount - 1) / 2;
  for (std::ptrdiff_t k = 0; k < tapCount; ++k) {
    const float h = taps[k];
    const std::ptrdiff_t shift = k - half;
    // n + shift must stay within [0, samples): samples outside the row are zero.
    const std::ptrdiff_t begin = std::max<std::ptrdiff_t>(0, -shift);
    const std::ptrdiff_t end = std::min(samples, samples - shift);
    const Sample* source = in + shift;
    for (std::ptrdiff_t n = begin; n < end; ++n) {
      out[n] += h * static_cast<float>(source[n]);
    }
  }
}

template <class Sample>
void filterRows(const std::vector<float>& taps, std::size_t rows, std::size_t samples,
                const Sample* in, float* out) {
  auto body = [&](std::size_t begin, std::size_t end) {
    for (std::size_t row = begin; row < end; ++row) {
      filterRow(taps.data(), static_cast<std::ptrdiff_t>(taps.size()), in + row * samples,
                out + row * samples, static_cast<std::ptrdiff_t>(samples));
    }
  };
  compute::cpu::parallelFor(rows, 0, body);
}

}  // namespace

BandpassKernel::BandpassKernel(std::vector<float> taps, std::size_t rows, std::size_t samples,
                               acquire::SampleType sampleType)
    : taps_(std::move(taps)), rows_(rows), samples_(samples), sampleType_(sampleType) {}

void BandpassKernel::enqueue(compute::Stream& stream, const std::byte* raw, float* out) const {
  stream.enqueueHost([this, raw, out] { run(raw, out); });
}

void BandpassKernel::run(const std::byte* raw, float* out) const {
  if (sampleType_ == acquire::SampleType::Int16) {
    filterRows(taps_, rows_, samples_, reinterpret_cast<const std::int16_t*>(raw), out);
  } else {
    filterRows(taps_, rows_, samples_, reinterpret_cast<const float*>(raw), out);
  }
}

}  // namespace cineflow::process::cpu

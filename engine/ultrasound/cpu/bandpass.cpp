#include "ultrasound/cpu/bandpass.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "compute/cpu/parallel_for.hpp"
#include "ultrasound/imaging_params.hpp"

namespace cineflow::ultrasound::cpu {
namespace {

// Input samples filtered together: every phase's outputs for them are summed in a stack block,
// then interleaved into the row.
constexpr std::ptrdiff_t kChunk = 256;

// One row: y[n U + p] = sum_i g_p[i] x[n + o_p + i]. For each phase the tap loop is outside, so
// that the inner loop is a plain multiply-add over contiguous samples, which the compiler
// vectorises (also the int16 -> float conversion); the block stays in L1 across taps.
template <class Sample>
void filterRow(const PolyphaseFir& fir, const Sample* in, float* out, std::ptrdiff_t samples) {
  const int factor = fir.factor;
  float block[kMaxRfUpsampling][kChunk];
  for (std::ptrdiff_t first = 0; first < samples; first += kChunk) {
    const std::ptrdiff_t count = std::min(kChunk, samples - first);
    for (int p = 0; p < factor; ++p) {
      float* sum = block[p];
      std::fill(sum, sum + count, 0.0f);
      const float* taps = fir.taps.data() + static_cast<std::ptrdiff_t>(p) * fir.perPhase;
      for (int i = 0; i < fir.perPhase; ++i) {
        const float h = taps[i];
        const std::ptrdiff_t shift = first + fir.offsets[static_cast<std::size_t>(p)] + i;
        // The input index j + shift must stay within [0, samples): outside, samples are zero.
        const std::ptrdiff_t begin = std::clamp<std::ptrdiff_t>(-shift, 0, count);
        const std::ptrdiff_t end = std::clamp<std::ptrdiff_t>(samples - shift, begin, count);
        const Sample* source = in + shift;
        for (std::ptrdiff_t j = begin; j < end; ++j) {
          sum[j] += h * static_cast<float>(source[j]);
        }
      }
    }
    float* row = out + first * factor;
    if (factor == 1) {
      std::copy(block[0], block[0] + count, row);
      continue;
    }
    for (std::ptrdiff_t j = 0; j < count; ++j) {
      for (int p = 0; p < factor; ++p) {
        row[j * factor + p] = block[p][j];
      }
    }
  }
}

}  // namespace

BandpassKernel::BandpassKernel(PolyphaseFir fir, std::size_t rows, std::size_t samples,
                               acquire::SampleType sampleType)
    : fir_(std::move(fir)), rows_(rows), samples_(samples), sampleType_(sampleType) {
  if (fir_.factor < 1 || fir_.factor > kMaxRfUpsampling) {
    throw std::invalid_argument("bandpass: interpolation factor " + std::to_string(fir_.factor) +
                                " is outside [1, " + std::to_string(kMaxRfUpsampling) + "]");
  }
}

void BandpassKernel::enqueue(compute::Stream& stream, const std::byte* raw, float* out) const {
  stream.enqueueHost([this, raw, out] { run(raw, out); });
}

void BandpassKernel::run(const std::byte* raw, float* out) const {
  if (sampleType_ == acquire::SampleType::Int16) {
    runRows(reinterpret_cast<const std::int16_t*>(raw), out);
  } else {
    runRows(reinterpret_cast<const float*>(raw), out);
  }
}

template <class Sample>
void BandpassKernel::runRows(const Sample* in, float* out) const {
  const std::size_t outSamples = samples_ * static_cast<std::size_t>(fir_.factor);
  auto body = [&](std::size_t begin, std::size_t end) {
    for (std::size_t row = begin; row < end; ++row) {
      filterRow(fir_, in + row * samples_, out + row * outSamples,
                static_cast<std::ptrdiff_t>(samples_));
    }
  };
  compute::cpu::parallelFor(rows_, 0, body);
}

}  // namespace cineflow::ultrasound::cpu

#include "process/cpu/bandpass.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "compute/cpu/parallel_for.hpp"
#include "process/imaging_params.hpp"

namespace cineflow::process::cpu {
namespace {

// Input samples filtered together: their window of the row (converted to float, zero outside
// the row) and every phase's outputs for them live in stack arrays.
constexpr std::ptrdiff_t kChunk = 256;
// Outputs summed together: their sums stay in registers through the tap loop.
constexpr std::ptrdiff_t kLanes = 8;
// The window's length beyond kChunk: the phases' offsets differ by at most 1, plus their taps.
constexpr std::ptrdiff_t kMaxSpan = 1 + 511 + kLanes;

// One row: y[n U + p] = sum_i g_p[i] x[n + o_p + i]. The row's window for a chunk is read (and
// converted) once; each phase then sums kLanes outputs at a time over its taps, which the
// compiler turns into vector multiply-adds with the sums in registers, in the taps' order.
template <class Sample>
void filterRow(const PolyphaseFir& fir, int minOffset, std::ptrdiff_t span, const Sample* in,
               float* out, std::ptrdiff_t samples) {
  const int factor = fir.factor;
  float window[kChunk + kMaxSpan];
  float block[kMaxRfUpsampling][kChunk];
  for (std::ptrdiff_t first = 0; first < samples; first += kChunk) {
    const std::ptrdiff_t count = std::min(kChunk, samples - first);
    const std::ptrdiff_t base = first + minOffset;
    for (std::ptrdiff_t i = 0; i < kChunk + span; ++i) {
      const std::ptrdiff_t n = base + i;
      window[i] = n >= 0 && n < samples ? static_cast<float>(in[n]) : 0.0f;
    }
    for (int p = 0; p < factor; ++p) {
      const float* taps = fir.taps.data() + static_cast<std::ptrdiff_t>(p) * fir.perPhase;
      const float* w = window + (fir.offsets[static_cast<std::size_t>(p)] - minOffset);
      for (std::ptrdiff_t j = 0; j < count; j += kLanes) {
        float sum[kLanes] = {};
        for (int i = 0; i < fir.perPhase; ++i) {
          const float h = taps[i];
          for (std::ptrdiff_t lane = 0; lane < kLanes; ++lane) {
            sum[lane] += h * w[j + lane + i];
          }
        }
        std::copy(sum, sum + kLanes, block[p] + j);
      }
    }
    float* row = out + first * factor;
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
  if (fir_.factor < 1 || fir_.factor > kMaxRfUpsampling || fir_.perPhase > 511) {
    throw std::invalid_argument("bandpass: interpolation factor " + std::to_string(fir_.factor) +
                                " (at most " + std::to_string(kMaxRfUpsampling) + ") or " +
                                std::to_string(fir_.perPhase) + " taps per phase (at most 511)");
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
  const int minOffset = *std::min_element(fir_.offsets.begin(), fir_.offsets.end());
  const int maxOffset = *std::max_element(fir_.offsets.begin(), fir_.offsets.end());
  const std::ptrdiff_t span = maxOffset - minOffset + fir_.perPhase + kLanes;
  auto body = [&](std::size_t begin, std::size_t end) {
    for (std::size_t row = begin; row < end; ++row) {
      filterRow(fir_, minOffset, span, in + row * samples_, out + row * outSamples,
                static_cast<std::ptrdiff_t>(samples_));
    }
  };
  compute::cpu::parallelFor(rows_, 0, body);
}

}  // namespace cineflow::process::cpu

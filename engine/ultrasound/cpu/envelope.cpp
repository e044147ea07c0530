#include "ultrasound/cpu/envelope.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <mutex>
#include <stdexcept>
#include <string>

#include "compute/cpu/parallel_for.hpp"

namespace cineflow::ultrasound::cpu {

EnvelopeKernel::EnvelopeKernel(std::size_t nz, std::size_t nx) : nz_(nz), nx_(nx) {
  if (nz > static_cast<std::size_t>(INT_MAX)) {
    throw std::invalid_argument("envelope: " + std::to_string(nz) + " rows exceed FFTW's limit");
  }
  // Exactly one scratch set per chunk, and no more chunks than threads: a chunk's index
  // (begin / grain) names scratch that no concurrently running chunk uses.
  const std::size_t chunks = std::min(compute::cpu::parallelism(), nx);
  grain_ = (nx + chunks - 1) / chunks;
  scratch_.reserve(chunks);
  for (std::size_t i = 0; i < chunks; ++i) {
    scratch_.push_back(
        {process::cpu::FftwArray<float>(nz), process::cpu::FftwArray<fftwf_complex>(nz)});
  }
  const int n = static_cast<int>(nz);
  std::lock_guard lock(process::cpu::fftwPlannerMutex());
  // FFTW_ESTIMATE plans without touching the arrays; every scratch array comes from fftwf_malloc
  // and so has the alignment these plans assume in fftwf_execute_dft*(plan, in, out).
  forward_ = process::cpu::FftwPlan(fftwf_plan_dft_r2c_1d(
      n, scratch_[0].column.data(), scratch_[0].analytic.data(), FFTW_ESTIMATE));
  inverse_ = process::cpu::FftwPlan(fftwf_plan_dft_1d(
      n, scratch_[0].analytic.data(), scratch_[0].analytic.data(), FFTW_BACKWARD, FFTW_ESTIMATE));
  if (forward_.get() == nullptr || inverse_.get() == nullptr) {
    throw std::runtime_error("envelope: FFTW could not plan a " + std::to_string(nz) +
                             "-point transform");
  }
}

void EnvelopeKernel::enqueue(compute::Stream& stream, const float* rf, float* envelope) const {
  stream.enqueueHost([this, rf, envelope] { run(rf, envelope); });
}

void EnvelopeKernel::selectVariant(std::size_t index) {
  if (index >= variantNames().size()) {
    throw std::invalid_argument("envelope: no CPU variant " + std::to_string(index));
  }
  if (index == 1 && quadrature_.empty()) {
    taps_ = hilbertTaps(nz_);
    quadrature_.assign(nz_ * nx_, 0.0f);
  }
  variant_ = index;
}

void EnvelopeKernel::run(const float* rf, float* envelope) const {
  if (variant_ == 1) {
    runDirect(rf, envelope);
    return;
  }
  auto body = [&](std::size_t begin, std::size_t end) {
    const Scratch& scratch = scratch_[begin / grain_];
    for (std::size_t x = begin; x < end; ++x) {
      detectColumn(x, scratch, rf, envelope);
    }
  };
  compute::cpu::parallelFor(nx_, grain_, body);
}

void EnvelopeKernel::runDirect(const float* rf, float* envelope) const {
  // Two passes, because the envelope may overwrite the input that other rows still read: the
  // imaginary part of every row, then the magnitudes.
  float* quadrature = quadrature_.data();
  const std::size_t taps = taps_.offsets.size();
  // Per output row, 64 columns at a time: their sums stay in registers over every tap.
  constexpr std::size_t kColumns = 64;
  auto convolveRows = [&](std::size_t begin, std::size_t end) {
    for (std::size_t z = begin; z < end; ++z) {
      for (std::size_t x0 = 0; x0 < nx_; x0 += kColumns) {
        const std::size_t count = std::min(kColumns, nx_ - x0);
        float sum[kColumns] = {};
        for (std::size_t t = 0; t < taps; ++t) {
          // Row (z - m) mod nz, with 0 < m < nz.
          const auto m = static_cast<std::size_t>(taps_.offsets[t]);
          const float* source = rf + (z >= m ? z - m : z + nz_ - m) * nx_ + x0;
          const float w = taps_.weights[t];
          if (count == kColumns) {
            for (std::size_t j = 0; j < kColumns; ++j) {
              sum[j] += w * source[j];
            }
          } else {
            for (std::size_t j = 0; j < count; ++j) {
              sum[j] += w * source[j];
            }
          }
        }
        std::copy(sum, sum + count, quadrature + z * nx_ + x0);
      }
    }
  };
  compute::cpu::parallelFor(nz_, std::max<std::size_t>(1, nz_ / (8 * compute::cpu::parallelism())),
                            convolveRows);
  auto magnitudes = [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      envelope[i] = std::sqrt(rf[i] * rf[i] + quadrature[i] * quadrature[i]);
    }
  };
  compute::cpu::parallelFor(nz_ * nx_, 16384, magnitudes);
}

void EnvelopeKernel::detectColumn(std::size_t x, const Scratch& scratch, const float* rf,
                                  float* envelope) const {
  float* column = scratch.column.data();
  fftwf_complex* analytic = scratch.analytic.data();
  for (std::size_t z = 0; z < nz_; ++z) {
    column[z] = rf[z * nx_ + x];
  }
  fftwf_execute_dft_r2c(forward_.get(), column, analytic);
  // r2c fills bins 0 .. N/2. The analytic signal keeps DC (and Nyquist for even N), doubles the
  // positive frequencies and zeroes the negative ones (bins N/2 + 1 .. N - 1).
  const std::size_t positiveEnd = (nz_ + 1) / 2;
  for (std::size_t k = 1; k < positiveEnd; ++k) {
    analytic[k][0] *= 2.0f;
    analytic[k][1] *= 2.0f;
  }
  for (std::size_t k = nz_ / 2 + 1; k < nz_; ++k) {
    analytic[k][0] = 0.0f;
    analytic[k][1] = 0.0f;
  }
  fftwf_execute_dft(inverse_.get(), analytic, analytic);
  const float scale = 1.0f / static_cast<float>(nz_);  // FFTW's inverse is unnormalised
  for (std::size_t z = 0; z < nz_; ++z) {
    const float re = analytic[z][0];
    const float im = analytic[z][1];
    envelope[z * nx_ + x] = std::sqrt(re * re + im * im) * scale;
  }
}

}  // namespace cineflow::ultrasound::cpu

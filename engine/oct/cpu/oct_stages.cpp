#include "oct/cpu/oct_stages.hpp"

#include <algorithm>
#include <cmath>
#include <mutex>

#include "compute/cpu/parallel_for.hpp"
#include "process/cpu/fftw_lock.hpp"

namespace cineflow::oct::cpu {
namespace {

// Catmull-Rom through four neighbours, t in [0, 1] between p1 and p2.
inline float catmullRom(float p0, float p1, float p2, float p3, float t) {
  const float a = -0.5f * p0 + 1.5f * p1 - 1.5f * p2 + 0.5f * p3;
  const float b = p0 - 2.5f * p1 + 2.0f * p2 - 0.5f * p3;
  const float c = -0.5f * p0 + 0.5f * p2;
  return ((a * t + b) * t + c) * t + p1;
}

}  // namespace

void meanSpectrum(const std::uint16_t* raw, int ascans, int samples, float* background) {
  auto body = [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      std::uint64_t sum = 0;
      for (int a = 0; a < ascans; ++a) {
        sum += raw[static_cast<std::size_t>(a) * static_cast<std::size_t>(samples) + i];
      }
      background[i] = static_cast<float>(static_cast<double>(sum) / ascans);
    }
  };
  // Columns of 64 samples: each chunk reads whole cache lines of every A-scan.
  compute::cpu::parallelFor(static_cast<std::size_t>(samples), 64, body);
}

void shapeAscan(const std::uint16_t* raw, const float* background, const SpectralTables& tables,
                Interpolation interpolation, std::complex<float>* out) {
  const int n = static_cast<int>(tables.positions.size());
  const auto value = [raw, background, n](int i) {
    const int at = std::clamp(i, 0, n - 1);
    return static_cast<float>(raw[at]) - background[at];
  };
  for (int j = 0; j < n; ++j) {
    const float position = tables.positions[static_cast<std::size_t>(j)];
    const int i = std::min(static_cast<int>(position), n - 2);
    const float t = position - static_cast<float>(i);
    float v;
    if (interpolation == Interpolation::Linear) {
      const float v0 = value(i), v1 = value(i + 1);
      v = v0 + t * (v1 - v0);
    } else {
      v = catmullRom(value(i - 1), value(i), value(i + 1), value(i + 2), t);
    }
    out[j] = {v * tables.phaseCos[static_cast<std::size_t>(j)],
              v * tables.phaseSin[static_cast<std::size_t>(j)]};
  }
}

void depthColumn(const std::complex<float>* transformed, int samples, int first, int last,
                 float* column, int stride) {
  const float scale = 1.0f / static_cast<float>(samples);
  for (int n = first; n < last; ++n) {
    const float magnitude = std::abs(transformed[n]) * scale;
    column[static_cast<std::size_t>(n - first) * static_cast<std::size_t>(stride)] =
        20.0f * std::log10(std::max(magnitude, kDbFloor));
  }
}

void OctCpuChain::configure(const OctAcquisition& acquisition, const OctParams& params) {
  acquisition_ = acquisition;
  tables_ = makeSpectralTables(params, acquisition);
  interpolation_ = params.interpolation;
  first_ = params.depthFirst;
  last_ = params.lastDepth(acquisition);
  columns_ = acquisition.imagedAscans();
  const std::size_t workers = compute::cpu::parallelism();
  grain_ = std::max<std::size_t>(
      1, (static_cast<std::size_t>(columns_) + 4 * workers - 1) / (4 * workers));
  const std::size_t chunks = (static_cast<std::size_t>(columns_) + grain_ - 1) / grain_;
  const auto n = static_cast<std::size_t>(acquisition.samples);
  scratch_.clear();
  for (std::size_t c = 0; c < chunks; ++c) {
    scratch_.emplace_back(n);
  }
  std::lock_guard lock(process::cpu::fftwPlannerMutex());
  process::cpu::FftwArray<fftwf_complex> probe(n);
  plan_ = process::cpu::FftwPlan(fftwf_plan_dft_1d(acquisition.samples, probe.data(), probe.data(),
                                                   FFTW_FORWARD, FFTW_ESTIMATE));
}

void OctCpuChain::enqueueBackground(compute::Stream& stream, const std::uint16_t* raw,
                                    float* background) {
  stream.enqueueHost(
      [this, raw, background] { meanSpectrum(raw, columns_, acquisition_.samples, background); });
}

void OctCpuChain::enqueueTransform(compute::Stream& stream, const std::uint16_t* raw,
                                   const float* background, float* image) {
  stream.enqueueHost([this, raw, background, image] { transform(raw, background, image); });
}

void OctCpuChain::transform(const std::uint16_t* raw, const float* background, float* image) {
  const auto samples = static_cast<std::size_t>(acquisition_.samples);
  auto body = [&](std::size_t begin, std::size_t end) {
    fftwf_complex* scratch = scratch_[begin / grain_].data();
    auto* spectrum = reinterpret_cast<std::complex<float>*>(scratch);
    for (std::size_t x = begin; x < end; ++x) {
      shapeAscan(raw + x * samples, background, tables_, interpolation_, spectrum);
      fftwf_execute_dft(plan_.get(), scratch, scratch);
      depthColumn(spectrum, acquisition_.samples, first_, last_, image + x, columns_);
    }
  };
  compute::cpu::parallelFor(static_cast<std::size_t>(columns_), grain_, body);
}

}  // namespace cineflow::oct::cpu

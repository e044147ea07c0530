#include "oct/cpu/oct_stages.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>

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

// log2(x) for finite x > 0, to about 1e-7 (1e-6 dB once scaled): the exponent from the bits, the
// mantissa m reduced to [sqrt(1/2), sqrt(2)) and log2(m) = 2 / ln 2 atanh((m - 1) / (m + 1)) by
// its series to the 7th power. Branch-free, so the loops over depth vectorise (std::log10 does
// not), which made the dB the chain's most expensive step.
inline float fastLog2(float x) {
  std::uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  int exponent = static_cast<int>((bits >> 23) & 0xff) - 127;
  std::uint32_t mantissaBits = (bits & 0x007fffffu) | 0x3f800000u;  // m in [1, 2)
  const bool upper = mantissaBits > 0x3fb504f3u;                    // m > sqrt(2)
  mantissaBits -= upper ? 0x00800000u : 0u;                         // m / 2 in [sqrt(1/2), 1)
  exponent += upper ? 1 : 0;
  float m;
  std::memcpy(&m, &mantissaBits, sizeof m);
  const float t = (m - 1.0f) / (m + 1.0f);
  const float t2 = t * t;
  const float series = t * (1.0f + t2 * (1.0f / 3 + t2 * (1.0f / 5 + t2 * (1.0f / 7))));
  return static_cast<float>(exponent) + 2.8853900817779268f * series;  // 2 / ln 2
}

// The fused chain's three loops per A-scan, each compiled for AVX-512, AVX2 + FMA and baseline
// x86-64, the best the CPU reports picked at run time (the resampling's gathers and the
// logarithm vectorise 8 or 16 wide instead of 4). Not under the sanitizers: their runtime is not
// up yet when the loader resolves the clones, and an instrumented resolver crashes there.
#if defined(__x86_64__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__) && \
    !defined(__SANITIZE_THREAD__)
#define CINEFLOW_OCT_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define CINEFLOW_OCT_CLONES
#endif

// line[i + 1] = raw[i] - background[i], padded by copies of the end samples (one before, two
// after) so that every tap reads inside the line: the taps' edge clamping.
CINEFLOW_OCT_CLONES void subtractBackground(const std::uint16_t* __restrict raw,
                                            const float* __restrict background, int n,
                                            float* __restrict line) {
  for (int i = 0; i < n; ++i) {
    line[i + 1] = static_cast<float>(raw[i]) - background[i];
  }
  line[0] = line[1];
  line[n + 1] = line[n + 2] = line[n];
}

// Interleaved complex out[j] = (sum_k w_k[j] line[first[j] + k]) (cos_j, sin_j).
CINEFLOW_OCT_CLONES void resampleShaped(const float* __restrict line,
                                        const ResamplingTaps& __restrict taps, int n,
                                        float* __restrict out) {
  const int* __restrict first = taps.first.data();
  const float* __restrict w0 = taps.w0.data();
  const float* __restrict w1 = taps.w1.data();
  const float* __restrict w2 = taps.w2.data();
  const float* __restrict w3 = taps.w3.data();
  const float* __restrict c = taps.cos.data();
  const float* __restrict s = taps.sin.data();
  for (int j = 0; j < n; ++j) {
    const int at = first[j];
    const float v =
        w0[j] * line[at] + w1[j] * line[at + 1] + w2[j] * line[at + 2] + w3[j] * line[at + 3];
    out[2 * j] = v * c[j];
    out[2 * j + 1] = v * s[j];
  }
}

// db[z] = 10 log10(max(|X_z|^2, floorSquared)) - offset for interleaved complex X.
CINEFLOW_OCT_CLONES void decibels(const float* __restrict spectrum, int count, float floorSquared,
                                  float offset, float* __restrict db) {
  constexpr float kDbPerLog2 = 3.0102999566398120f;  // 10 log10(2)
  for (int z = 0; z < count; ++z) {
    const float re = spectrum[2 * z], im = spectrum[2 * z + 1];
    db[z] = kDbPerLog2 * fastLog2(std::max(re * re + im * im, floorSquared)) - offset;
  }
}

}  // namespace

void meanSpectrum(const std::uint16_t* raw, int ascans, int samples, float* background) {
  auto body = [&](std::size_t begin, std::size_t end) {
    // A-scan by A-scan over the chunk's samples: contiguous reads; sums of 12- or 16-bit counts
    // stay exact in 32-bit integers for 65536 A-scans.
    std::uint32_t sums[512] = {};
    for (int a = 0; a < ascans; ++a) {
      const std::uint16_t* line =
          raw + static_cast<std::size_t>(a) * static_cast<std::size_t>(samples);
      for (std::size_t i = begin; i < end; ++i) {
        sums[i - begin] += line[i];
      }
    }
    for (std::size_t i = begin; i < end; ++i) {
      background[i] = static_cast<float>(static_cast<double>(sums[i - begin]) / ascans);
    }
  };
  // 512 samples per chunk: each chunk reads 1 KiB of every A-scan, contiguous, and a few
  // chunks keep both cores busy.
  compute::cpu::parallelFor(static_cast<std::size_t>(samples), 512, body);
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
  // Whole tiles of kTileColumns A-scans per chunk, so that the "separate" variant's batches fill.
  const std::size_t share = (static_cast<std::size_t>(columns_) + 4 * workers - 1) / (4 * workers);
  grain_ = std::max<std::size_t>(1, (share + kTileColumns - 1) / kTileColumns) * kTileColumns;
  const std::size_t chunks = (static_cast<std::size_t>(columns_) + grain_ - 1) / grain_;
  const auto n = static_cast<std::size_t>(acquisition.samples);
  scratch_.clear();
  lines_.clear();
  tiles_.clear();
  for (std::size_t c = 0; c < chunks; ++c) {
    scratch_.emplace_back(n);
    lines_.emplace_back(n + 3);
    tiles_.emplace_back(kTileColumns * static_cast<std::size_t>(last_ - first_));
  }
  const InterpolationTaps taps = makeTaps(tables_.positions, interpolation_);
  taps_ = ResamplingTaps{};
  for (std::size_t j = 0; j < n; ++j) {
    taps_.first.push_back(taps.first[j]);  // padded line: line index = raw index + 1
    taps_.w0.push_back(taps.weights[4 * j]);
    taps_.w1.push_back(taps.weights[4 * j + 1]);
    taps_.w2.push_back(taps.weights[4 * j + 2]);
    taps_.w3.push_back(taps.weights[4 * j + 3]);
  }
  taps_.cos = tables_.phaseCos;
  taps_.sin = tables_.phaseSin;
  process::cpu::FftwPlan plan;
  {
    std::lock_guard lock(process::cpu::fftwPlannerMutex());
    process::cpu::FftwArray<fftwf_complex> probe(n);
    // FFTW_MEASURE once per size: later plans of the same size reuse the process's wisdom.
    plan = process::cpu::FftwPlan(fftwf_plan_dft_1d(acquisition.samples, probe.data(), probe.data(),
                                                    FFTW_FORWARD, FFTW_MEASURE));
  }
  plan_ = std::move(plan);  // the old plan is destroyed under the planner mutex: not held here
  // 20 log10(|X| / N) = 10 log10(|X|^2) - 20 log10(N); the floor applies to |X| / N.
  dbOffset_ = 20.0f * std::log10(static_cast<float>(n));
  floorSquared_ = kDbFloor * kDbFloor * static_cast<float>(n) * static_cast<float>(n);
  batchPlan_ = {};
  batches_.clear();
  if (variant_ == 1) {
    variant_ = 0;
    selectVariant(1);  // plans the new size's batch
  }
}

void OctCpuChain::selectVariant(std::size_t index) {
  if (index >= variantNames().size()) {
    throw std::invalid_argument("OCT transform: no CPU variant " + std::to_string(index));
  }
  if (index == 1 && batches_.empty()) {
    const int n = acquisition_.samples;
    const auto values = kTileColumns * static_cast<std::size_t>(n);
    std::vector<process::cpu::FftwArray<fftwf_complex>> batches;
    for (std::size_t c = 0; c < scratch_.size(); ++c) {
      batches.emplace_back(values);
    }
    process::cpu::FftwPlan plan;
    {
      std::lock_guard lock(process::cpu::fftwPlannerMutex());
      process::cpu::FftwArray<fftwf_complex> probe(values);
      plan = process::cpu::FftwPlan(fftwf_plan_many_dft(1, &n, static_cast<int>(kTileColumns),
                                                        probe.data(), nullptr, 1, n, probe.data(),
                                                        nullptr, 1, n, FFTW_FORWARD, FFTW_MEASURE));
    }
    if (plan.get() == nullptr) {
      throw std::runtime_error("OCT transform: FFTW could not plan a batch of " +
                               std::to_string(kTileColumns) + " " + std::to_string(n) +
                               "-point transforms");
    }
    batchPlan_ = std::move(plan);
    batches_ = std::move(batches);
  }
  variant_ = index;
}

void OctCpuChain::transformTile(const std::uint16_t* raw, const float* background,
                                std::size_t chunk, std::size_t x0, std::size_t width, float* tile) {
  const int n = acquisition_.samples;
  const auto samples = static_cast<std::size_t>(n);
  const auto depths = static_cast<std::size_t>(last_ - first_);
  float* line = lines_[chunk].data();
  if (variant_ == 1 && width == kTileColumns) {
    fftwf_complex* batch = batches_[chunk].data();
    for (std::size_t c = 0; c < width; ++c) {
      subtractBackground(raw + (x0 + c) * samples, background, n, line);
      resampleShaped(line, taps_, n, &batch[c * samples][0]);
    }
    fftwf_execute_dft(batchPlan_.get(), batch, batch);
    for (std::size_t c = 0; c < width; ++c) {
      decibels(&batch[c * samples + static_cast<std::size_t>(first_)][0], static_cast<int>(depths),
               floorSquared_, dbOffset_, tile + c * depths);
    }
    return;
  }
  fftwf_complex* scratch = scratch_[chunk].data();
  for (std::size_t c = 0; c < width; ++c) {
    subtractBackground(raw + (x0 + c) * samples, background, n, line);
    resampleShaped(line, taps_, n, &scratch[0][0]);
    fftwf_execute_dft(plan_.get(), scratch, scratch);
    decibels(&scratch[first_][0], static_cast<int>(depths), floorSquared_, dbOffset_,
             tile + c * depths);
  }
}

void OctCpuChain::enqueueBackground(compute::Stream& stream, const std::uint16_t* raw,
                                    float* background) {
  stream.enqueueHost(
      [this, raw, background] { meanSpectrum(raw, columns_, acquisition_.samples, background); });
}

void OctCpuChain::enqueueTransform(compute::Stream& stream, const std::uint16_t* raw,
                                   const float* background, float* image, bool reverse) {
  stream.enqueueHost(
      [this, raw, background, image, reverse] { transform(raw, background, image, reverse); });
}

void OctCpuChain::transform(const std::uint16_t* raw, const float* background, float* image,
                            bool reverse) {
  const auto depths = static_cast<std::size_t>(last_ - first_);
  auto body = [&](std::size_t begin, std::size_t end) {
    const std::size_t chunk = begin / grain_;
    float* tile = tiles_[chunk].data();  // [kTileColumns][depths]: written to the image by rows
    for (std::size_t x0 = begin; x0 < end; x0 += kTileColumns) {
      const std::size_t width = std::min(kTileColumns, end - x0);
      transformTile(raw, background, chunk, x0, width, tile);
      if (reverse) {  // A-scan x0 + c into column columns_ - 1 - x0 - c
        const std::size_t last = static_cast<std::size_t>(columns_) - 1 - x0;
        for (std::size_t z = 0; z < depths; ++z) {
          float* row = image + z * static_cast<std::size_t>(columns_) + last;
          for (std::size_t c = 0; c < width; ++c) {
            *(row - c) = tile[c * depths + z];
          }
        }
      } else {
        for (std::size_t z = 0; z < depths; ++z) {
          float* row = image + z * static_cast<std::size_t>(columns_) + x0;
          for (std::size_t c = 0; c < width; ++c) {
            row[c] = tile[c * depths + z];
          }
        }
      }
    }
  };
  compute::cpu::parallelFor(static_cast<std::size_t>(columns_), grain_, body);
}

}  // namespace cineflow::oct::cpu

#include "oct/cpu/oct_stages.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>

#include "compute/cpu/isa.hpp"
#include "compute/cpu/parallel_for.hpp"
#include "process/cpu/fftw_lock.hpp"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define CINEFLOW_OCT_AVX512 1
// GCC 12 flags the intrinsics' own "undefined" source vectors as maybe-uninitialised.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#else
#define CINEFLOW_OCT_AVX512 0
#endif

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

#if CINEFLOW_OCT_AVX512
// resampleShaped for AVX-512, a block of 16 output samples at a time: the block's taps from its
// window (two loads, four permutes) or, where they spread wider, four gathers; the interleaved
// complex output by two permutes.
CINEFLOW_ISA_AVX512 void resampleShapedAvx512(const float* __restrict line,
                                              const ResamplingTaps& __restrict taps, int n,
                                              float* __restrict out) {
  constexpr int kBlock = ResamplingTaps::kBlock;
  const __m512i low = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const __m512i high =
      _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const __m512i one = _mm512_set1_epi32(1);
  const int blocks = n / kBlock;
  for (int b = 0; b < blocks; ++b) {
    const int j = b * kBlock;
    const int start = taps.windowStart[static_cast<std::size_t>(b)];
    __m512 v;
    if (start >= 0) {
      const __m512 a = _mm512_loadu_ps(line + start);
      const __m512 c = _mm512_loadu_ps(line + start + kBlock);
      const __m512i o0 = _mm512_cvtepi8_epi32(
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(taps.windowOffsets.data() + j)));
      const __m512i o1 = _mm512_add_epi32(o0, one);
      const __m512i o2 = _mm512_add_epi32(o1, one);
      const __m512 t = _mm512_loadu_ps(taps.fraction.data() + j);
      const __m512 p1 = _mm512_permutex2var_ps(a, o1, c);
      const __m512 p2 = _mm512_permutex2var_ps(a, o2, c);
      if (taps.cubic) {  // Catmull-Rom: the weights of makeTaps as polynomials in t
        const __m512i o3 = _mm512_add_epi32(o2, one);
        const __m512 p0 = _mm512_permutex2var_ps(a, o0, c);
        const __m512 p3 = _mm512_permutex2var_ps(a, o3, c);
        const __m512 half = _mm512_set1_ps(0.5f);
        // v = p1 + t/2 (p2 - p0) + t^2 (p0 - 5/2 p1 + 2 p2 - p3/2) + t^3/2 (3 (p1 - p2) + p3 - p0)
        const __m512 d1 = _mm512_mul_ps(half, _mm512_sub_ps(p2, p0));
        const __m512 d2 =
            _mm512_sub_ps(_mm512_fmadd_ps(_mm512_set1_ps(2.0f), p2, p0),
                          _mm512_fmadd_ps(_mm512_set1_ps(2.5f), p1, _mm512_mul_ps(half, p3)));
        const __m512 d3 = _mm512_mul_ps(
            half, _mm512_add_ps(_mm512_mul_ps(_mm512_set1_ps(3.0f), _mm512_sub_ps(p1, p2)),
                                _mm512_sub_ps(p3, p0)));
        v = _mm512_fmadd_ps(_mm512_fmadd_ps(_mm512_fmadd_ps(d3, t, d2), t, d1), t, p1);
      } else {  // linear between the second and third taps
        v = _mm512_fmadd_ps(t, _mm512_sub_ps(p2, p1), p1);
      }
    } else {
      const __m512i at = _mm512_loadu_si512(taps.first.data() + j);
      const __m512i at1 = _mm512_add_epi32(at, one);
      const __m512i at2 = _mm512_add_epi32(at1, one);
      const __m512i at3 = _mm512_add_epi32(at2, one);
      v = _mm512_mul_ps(_mm512_loadu_ps(taps.w0.data() + j), _mm512_i32gather_ps(at, line, 4));
      v = _mm512_fmadd_ps(_mm512_loadu_ps(taps.w1.data() + j), _mm512_i32gather_ps(at1, line, 4),
                          v);
      v = _mm512_fmadd_ps(_mm512_loadu_ps(taps.w2.data() + j), _mm512_i32gather_ps(at2, line, 4),
                          v);
      v = _mm512_fmadd_ps(_mm512_loadu_ps(taps.w3.data() + j), _mm512_i32gather_ps(at3, line, 4),
                          v);
    }
    const __m512 re = _mm512_mul_ps(v, _mm512_loadu_ps(taps.cos.data() + j));
    const __m512 im = _mm512_mul_ps(v, _mm512_loadu_ps(taps.sin.data() + j));
    _mm512_storeu_ps(out + 2 * j, _mm512_permutex2var_ps(re, low, im));
    _mm512_storeu_ps(out + 2 * j + kBlock, _mm512_permutex2var_ps(re, high, im));
  }
  for (int j = blocks * kBlock; j < n; ++j) {  // the samples after the last whole block
    const float* at = line + taps.first[static_cast<std::size_t>(j)];
    const auto u = static_cast<std::size_t>(j);
    const float value =
        taps.w0[u] * at[0] + taps.w1[u] * at[1] + taps.w2[u] * at[2] + taps.w3[u] * at[3];
    out[2 * j] = value * taps.cos[u];
    out[2 * j + 1] = value * taps.sin[u];
  }
}

// A whole tile of 16 A-scans' dB ([16][stride], `depths` used, stride >= depths rounded up to
// 16) into image rows [z][columns] at columns x0 .. x0 + 15, or mirrored into columns - 1 - x0 -
// c: blocks of 16 depths transposed in registers (unpacks within 128-bit lanes, then lane
// shuffles), no gathers.
CINEFLOW_ISA_AVX512 void writeTileAvx512(const float* tile, std::size_t stride, std::size_t depths,
                                         float* image, std::size_t columns, std::size_t x0,
                                         bool reverse) {
  const __m512i mirror = _mm512_setr_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  const std::size_t first = reverse ? columns - x0 - 16 : x0;
  for (std::size_t z0 = 0; z0 < depths; z0 += 16) {
    __m512 r[16], t[16], u[16], o[16];
    for (int c = 0; c < 16; ++c) {  // r[c]: depths z0 .. z0 + 15 of A-scan c
      r[c] = _mm512_loadu_ps(tile + static_cast<std::size_t>(c) * stride + z0);
    }
    for (int i = 0; i < 8; ++i) {  // per 128-bit lane L: [a_4L b_4L a_4L+1 b_4L+1], [.. +2, +3]
      t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
      t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    }
    for (int i = 0; i < 4; ++i) {  // u[4i + m], lane L: depth 4L + m of A-scans 4i .. 4i + 3
      const __m512d t0 = _mm512_castps_pd(t[4 * i]), t1 = _mm512_castps_pd(t[4 * i + 1]);
      const __m512d t2 = _mm512_castps_pd(t[4 * i + 2]), t3 = _mm512_castps_pd(t[4 * i + 3]);
      u[4 * i] = _mm512_castpd_ps(_mm512_unpacklo_pd(t0, t2));
      u[4 * i + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(t0, t2));
      u[4 * i + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(t1, t3));
      u[4 * i + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(t1, t3));
    }
    for (int m = 0; m < 4; ++m) {  // o[4L + m]: lane L of u[m], u[4 + m], u[8 + m], u[12 + m]
      const __m512 v0 = _mm512_shuffle_f32x4(u[m], u[4 + m], 0x88);  // lanes 0, 2 | 0, 2
      const __m512 v1 = _mm512_shuffle_f32x4(u[m], u[4 + m], 0xdd);  // lanes 1, 3 | 1, 3
      const __m512 w0 = _mm512_shuffle_f32x4(u[8 + m], u[12 + m], 0x88);
      const __m512 w1 = _mm512_shuffle_f32x4(u[8 + m], u[12 + m], 0xdd);
      o[m] = _mm512_shuffle_f32x4(v0, w0, 0x88);
      o[8 + m] = _mm512_shuffle_f32x4(v0, w0, 0xdd);
      o[4 + m] = _mm512_shuffle_f32x4(v1, w1, 0x88);
      o[12 + m] = _mm512_shuffle_f32x4(v1, w1, 0xdd);
    }
    const std::size_t rows = std::min<std::size_t>(16, depths - z0);
    for (std::size_t k = 0; k < rows; ++k) {
      const __m512 values = reverse ? _mm512_permutexvar_ps(mirror, o[k]) : o[k];
      float* at = image + (z0 + k) * columns + first;
      if (reinterpret_cast<std::uintptr_t>(at) % 64 == 0) {
        // A whole cache line of an image row that nothing reads before the B-scan is complete:
        // written past the caches, without first reading the line.
        _mm512_stream_ps(at, values);
      } else {
        _mm512_storeu_ps(at, values);
      }
    }
  }
  _mm_sfence();  // the streamed lines are visible before the stage reports the B-scan done
}
#endif

// The windows of ResamplingTaps for `n` output samples (the line holds n + 3 + kWindow values),
// from the taps' first indices and the positions they interpolate.
void makeWindows(ResamplingTaps& taps, const std::vector<float>& positions, int n) {
  constexpr int kBlock = ResamplingTaps::kBlock;
  const int blocks = n / kBlock;
  taps.windowStart.assign(static_cast<std::size_t>(blocks), -1);
  taps.windowOffsets.assign(static_cast<std::size_t>(n), 0);
  taps.fraction.resize(static_cast<std::size_t>(n));
  for (std::size_t j = 0; j < taps.fraction.size(); ++j) {
    taps.fraction[j] = positions[j] - static_cast<float>(taps.first[j]);  // as makeTaps' t
  }
  for (int b = 0; b < blocks; ++b) {
    const auto j0 = static_cast<std::size_t>(b * kBlock);
    const auto begin = taps.first.begin() + static_cast<std::ptrdiff_t>(j0);
    const auto [lowest, highest] = std::minmax_element(begin, begin + kBlock);
    if (*highest + 3 - *lowest >= ResamplingTaps::kWindow) {
      continue;  // gathered
    }
    taps.windowStart[static_cast<std::size_t>(b)] = *lowest;
    for (std::size_t i = 0; i < static_cast<std::size_t>(kBlock); ++i) {
      taps.windowOffsets[j0 + i] = static_cast<std::int8_t>(taps.first[j0 + i] - *lowest);
    }
  }
}

}  // namespace

std::size_t meanSpectrumScratch(int samples) {
  return compute::cpu::parallelism() * static_cast<std::size_t>(samples);
}

void meanSpectrum(const std::uint16_t* raw, int ascans, int samples, float* background,
                  std::span<std::uint32_t> sums) {
  std::vector<std::uint32_t> own;
  if (sums.size() < meanSpectrumScratch(samples)) {
    own.resize(meanSpectrumScratch(samples));
    sums = own;
  }
  const auto n = static_cast<std::size_t>(samples);
  const auto count = static_cast<std::size_t>(ascans);
  const std::size_t workers = compute::cpu::parallelism();
  const std::size_t grain = std::max<std::size_t>(1, (count + workers - 1) / workers);
  const std::size_t parts = (count + grain - 1) / grain;  // at most `workers`
  auto body = [&](std::size_t begin, std::size_t end) {
    // Whole A-scans, streamed contiguously into this part's sums (in the L1 cache); sums of 12-
    // or 16-bit counts stay exact in 32-bit integers for 65536 A-scans.
    std::uint32_t* part = sums.data() + begin / grain * n;
    std::fill(part, part + n, 0u);
    for (std::size_t a = begin; a < end; ++a) {
      const std::uint16_t* line = raw + a * n;
      for (std::size_t i = 0; i < n; ++i) {
        part[i] += line[i];
      }
    }
  };
  compute::cpu::parallelFor(count, grain, body);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t total = 0;
    for (std::size_t p = 0; p < parts; ++p) {
      total += sums[p * n + i];
    }
    background[i] = static_cast<float>(static_cast<double>(total) / ascans);
  }
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
  meanSums_.assign(meanSpectrumScratch(acquisition.samples), 0u);
  tiles_.clear();
  // An odd number of 64-byte lines between a tile's rows: the 16 values of an image row lie in 16
  // different sets of the L1 cache (1024 depths, 4 KiB apart, all fell into one set).
  const auto depthLines = (static_cast<std::size_t>(last_ - first_) + 15) / 16;
  tileStride_ = 16 * (depthLines % 2 == 1 ? depthLines : depthLines + 1);
  for (std::size_t c = 0; c < chunks; ++c) {
    scratch_.emplace_back(n);
    lines_.emplace_back(n + 3 + ResamplingTaps::kWindow);
    tiles_.emplace_back(kTileColumns * tileStride_);
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
  taps_.cubic = interpolation_ == Interpolation::Cubic;
  makeWindows(taps_, tables_.positions, acquisition.samples);
  allowAvx512(avx512Allowed_);
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

void OctCpuChain::allowAvx512(bool allowed) {
  const auto& isas = compute::cpu::availableIsas();
  avx512Allowed_ = allowed;
  avx512_ = CINEFLOW_OCT_AVX512 && allowed &&
            std::find(isas.begin(), isas.end(), compute::cpu::Isa::Avx512) != isas.end();
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

void OctCpuChain::resample(const float* line, float* out) const {
#if CINEFLOW_OCT_AVX512
  if (avx512_) {
    resampleShapedAvx512(line, taps_, acquisition_.samples, out);
    return;
  }
#endif
  resampleShaped(line, taps_, acquisition_.samples, out);
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
      resample(line, &batch[c * samples][0]);
    }
    fftwf_execute_dft(batchPlan_.get(), batch, batch);
    for (std::size_t c = 0; c < width; ++c) {
      decibels(&batch[c * samples + static_cast<std::size_t>(first_)][0], static_cast<int>(depths),
               floorSquared_, dbOffset_, tile + c * tileStride_);
    }
    return;
  }
  fftwf_complex* scratch = scratch_[chunk].data();
  for (std::size_t c = 0; c < width; ++c) {
    subtractBackground(raw + (x0 + c) * samples, background, n, line);
    resample(line, &scratch[0][0]);
    fftwf_execute_dft(plan_.get(), scratch, scratch);
    decibels(&scratch[first_][0], static_cast<int>(depths), floorSquared_, dbOffset_,
             tile + c * tileStride_);
  }
}

void OctCpuChain::enqueueBackground(compute::Stream& stream, const std::uint16_t* raw,
                                    float* background) {
  stream.enqueueHost([this, raw, background] {
    meanSpectrum(raw, columns_, acquisition_.samples, background, meanSums_);
  });
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
    float* tile =
        tiles_[chunk].data();  // [kTileColumns][tileStride_]: written to the image by rows
    for (std::size_t x0 = begin; x0 < end; x0 += kTileColumns) {
      const std::size_t width = std::min(kTileColumns, end - x0);
      transformTile(raw, background, chunk, x0, width, tile);
#if CINEFLOW_OCT_AVX512
      if (avx512_ && width == kTileColumns) {
        writeTileAvx512(tile, tileStride_, depths, image, static_cast<std::size_t>(columns_), x0,
                        reverse);
        continue;
      }
#endif
      if (reverse) {  // A-scan x0 + c into column columns_ - 1 - x0 - c
        const std::size_t last = static_cast<std::size_t>(columns_) - 1 - x0;
        for (std::size_t z = 0; z < depths; ++z) {
          float* row = image + z * static_cast<std::size_t>(columns_) + last;
          for (std::size_t c = 0; c < width; ++c) {
            *(row - c) = tile[c * tileStride_ + z];
          }
        }
      } else {
        for (std::size_t z = 0; z < depths; ++z) {
          float* row = image + z * static_cast<std::size_t>(columns_) + x0;
          for (std::size_t c = 0; c < width; ++c) {
            row[c] = tile[c * tileStride_ + z];
          }
        }
      }
    }
  };
  compute::cpu::parallelFor(static_cast<std::size_t>(columns_), grain_, body);
}

}  // namespace cineflow::oct::cpu

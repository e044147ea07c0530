#include "ultrasound/sim_synthesis.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>
#include <random>
#include <vector>

#include "acquire/random.hpp"
#include "compute/cpu/parallel_for.hpp"
#include "ultrasound/simulator.hpp"

namespace cineflow::ultrasound::detail {

namespace {

// The echo of a scatterer at delay tau is w g(t - tau) cos(2 pi f0 (t - tau)) with g the Gaussian
// envelope, i.e. Re{ w e^(-j 2 pi f0 tau) g(t - tau) e^(j 2 pi f0 t) }. So each element line is
// built at baseband: every scatterer deposits its complex weight w e^(-j 2 pi f0 tau) at the
// fractional sample (tau - t0) fs, split linearly between the two neighbouring samples; one
// convolution with g per line and one modulation by e^(j 2 pi f0 t_n) then give the RF. That
// costs a few operations per (scatterer, element, transmit) instead of a pulse's worth of
// samples and is exact in phase; the linear split perturbs the envelope by about
// f(1 - f) / (2 (sigma_t fs)^2), under 2 % at the default 2.5-sample sigma_t.
//
// The delay does not depend on elevation, so a scatterer's deposit position and phase are the
// same in every slice that sees it (about 7 at the defaults); only the elevation-profile weight
// differs. All slices are therefore built together, one element per task.

// Two complex samples (re, im, re, im): one SIMD register on every target GCC and Clang know.
// The deposit is this code's hot spot, and neither compiler vectorises it on its own.
typedef float Float4 __attribute__((vector_size(16)));

struct SweepScatterer {
  double x, z;
  int firstElement, lastElement;  // the elements whose acceptance cone holds it
  int firstSlice, sliceCount;     // the slices within 3 elevation sigmas
  std::size_t weights;            // offset of sliceCount amplitude x profile values
};

// cos / sin of 2 pi k / kSize: a phase error below pi / kSize = 0.003 rad.
class PhaseTable {
 public:
  static constexpr int kSize = 1024;
  PhaseTable() : cos_(kSize), sin_(kSize) {
    for (int k = 0; k < kSize; ++k) {
      cos_[static_cast<std::size_t>(k)] =
          static_cast<float>(std::cos(2 * std::numbers::pi * k / kSize));
      sin_[static_cast<std::size_t>(k)] =
          static_cast<float>(std::sin(2 * std::numbers::pi * k / kSize));
    }
  }
  // Index of the phase 2 pi `cycles`, rounded (off by one step for negative `cycles`, which
  // is harmless); avoids std::floor, a library call without SSE4.1.
  static int index(double cycles) {
    return static_cast<int>(static_cast<std::int64_t>(cycles * kSize + 0.5) & (kSize - 1));
  }
  float cos(int index) const { return cos_[static_cast<std::size_t>(index)]; }
  float sin(int index) const { return sin_[static_cast<std::size_t>(index)]; }

 private:
  std::vector<float> cos_, sin_;
};

// sigma_t of a Gaussian pulse whose spectrum falls to half amplitude (-6 dB) at f0 (1 +- B/2).
double pulseSigmaSeconds(double f0, double fractionalBandwidth) {
  const double halfWidthHz = fractionalBandwidth * f0 / 2;
  const double sigmaHz = halfWidthHz / std::sqrt(2 * std::numbers::ln2);
  return 1 / (2 * std::numbers::pi * sigmaHz);
}

// The scatterers that reach at least one (slice, element), in depth order (consecutive
// scatterers then deposit into neighbouring samples: cache hits). The sort key is total, so the
// summation order, and hence the result, is deterministic.
std::vector<SweepScatterer> prepareScatterers(const SimulatorConfig& config,
                                              const acquire::AcquisitionParams& params,
                                              std::span<const Scatterer> scatterers,
                                              std::span<const double> elevations,
                                              std::vector<float>& weights) {
  const double sigmaY = config.elevationSigmaM;
  const double tanAcceptance = std::tan(config.receiveAcceptanceDeg * std::numbers::pi / 180);
  const double firstX = params.elementXM.front();
  const int elements = params.elements();
  const int slices = static_cast<int>(elevations.size());
  std::vector<std::size_t> order(scatterers.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    order[i] = i;
  }
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const Scatterer& p = scatterers[a];
    const Scatterer& q = scatterers[b];
    if (p.z != q.z) {
      return p.z < q.z;
    }
    if (p.x != q.x) {
      return p.x < q.x;
    }
    return a < b;
  });
  std::vector<SweepScatterer> out;
  weights.clear();
  for (std::size_t i : order) {
    const Scatterer& s = scatterers[i];
    if (!(s.z > 0)) {
      continue;
    }
    const double cone = s.z * tanAcceptance;
    const double lo = std::max(0.0, std::ceil((s.x - cone - firstX) / config.pitchM));
    const double hi = std::min(elements - 1.0, std::floor((s.x + cone - firstX) / config.pitchM));
    if (lo > hi) {
      continue;
    }
    SweepScatterer entry{s.x, s.z, static_cast<int>(lo), static_cast<int>(hi),
                         0,   0,   weights.size()};
    for (int k = 0; k < slices; ++k) {
      const double dy = s.y - elevations[static_cast<std::size_t>(k)];
      if (std::abs(dy) > 3 * sigmaY) {
        if (entry.sliceCount > 0) {
          break;  // elevations increase, so no later slice is within reach either
        }
        continue;
      }
      if (entry.sliceCount == 0) {
        entry.firstSlice = k;
      }
      ++entry.sliceCount;
      weights.push_back(
          static_cast<float>(s.amplitude * std::exp(-dy * dy / (2 * sigmaY * sigmaY))));
    }
    if (entry.sliceCount > 0) {
      out.push_back(entry);
    }
  }
  return out;
}

}  // namespace

void synthesiseSweep(const SimulatorConfig& config, const acquire::AcquisitionParams& params,
                     std::span<const Scatterer> scatterers, std::span<const double> elevations,
                     std::span<float> rf, const std::function<void(double)>& progress) {
  const int slices = static_cast<int>(elevations.size());
  const int transmits = params.transmits();
  const int elements = params.elements();
  const int samples = params.samples;
  const double fs = params.samplingFrequencyHz;
  const double f0 = params.centerFrequencyHz;
  const double inverseC = 1 / params.soundSpeedMPerS;
  const double t0 = params.t0S;

  std::vector<float> weights;
  const std::vector<SweepScatterer> sweep =
      prepareScatterers(config, params, scatterers, elevations, weights);

  // Envelope taps g[k], |k| <= half, cut at 3.5 sigma_t.
  const double sigmaT = pulseSigmaSeconds(f0, params.fractionalBandwidth);
  const int half = static_cast<int>(std::floor(3.5 * sigmaT * fs));
  std::vector<float> envelope(static_cast<std::size_t>(2 * half + 1));
  for (int k = -half; k <= half; ++k) {
    const double t = k / fs;
    envelope[static_cast<std::size_t>(k + half)] =
        static_cast<float>(std::exp(-t * t / (2 * sigmaT * sigmaT)));
  }
  // Carrier e^(j 2 pi f0 t_n) per output sample.
  std::vector<float> carrierCos(static_cast<std::size_t>(samples));
  std::vector<float> carrierSin(static_cast<std::size_t>(samples));
  for (int n = 0; n < samples; ++n) {
    const double phase = 2 * std::numbers::pi * std::fmod(f0 * (t0 + n / fs), 1.0);
    carrierCos[static_cast<std::size_t>(n)] = static_cast<float>(std::cos(phase));
    carrierSin[static_cast<std::size_t>(n)] = static_cast<float>(std::sin(phase));
  }
  const PhaseTable phases;
  std::vector<double> cosA(static_cast<std::size_t>(transmits));
  std::vector<double> sinA(static_cast<std::size_t>(transmits));
  for (int t = 0; t < transmits; ++t) {
    cosA[static_cast<std::size_t>(t)] = std::cos(params.anglesRad[static_cast<std::size_t>(t)]);
    sinA[static_cast<std::size_t>(t)] = std::sin(params.anglesRad[static_cast<std::size_t>(t)]);
  }
  // Baseband lines are padded by `half` + 1 samples on each side so that echoes centred just
  // outside the record still leave their tails inside it.
  const int pad = half + 1;
  const int padded = samples + 2 * pad;
  const std::size_t lineFloats = static_cast<std::size_t>(padded) * 2;

  // One element per task: its [slice][transmit] baseband lines (about 0.5 MB at the defaults).
  auto synthesiseElement = [&](int e, std::vector<float>& baseband) {
    baseband.assign(static_cast<std::size_t>(slices * transmits) * lineFloats, 0.0f);
    const double xe = params.elementXM[static_cast<std::size_t>(e)];
    for (const SweepScatterer& s : sweep) {
      if (e < s.firstElement || e > s.lastElement) {
        continue;
      }
      const double dx = s.x - xe;
      const double r = std::sqrt(dx * dx + s.z * s.z);
      const auto obliquity = static_cast<float>(s.z / r);
      const float* w = weights.data() + s.weights;
      for (int t = 0; t < transmits; ++t) {
        const double tau = (s.z * cosA[static_cast<std::size_t>(t)] +
                            s.x * sinA[static_cast<std::size_t>(t)] + r) *
                           inverseC;
        const double u = (tau - t0) * fs + pad;
        if (!(u >= 0) || u >= padded - 1) {
          continue;
        }
        const int n0 = static_cast<int>(u);
        const auto f = static_cast<float>(u - n0);
        const int phase = PhaseTable::index(f0 * tau);
        const float re = obliquity * phases.cos(phase);
        const float im = -obliquity * phases.sin(phase);
        const Float4 split = {(1 - f) * re, (1 - f) * im, f * re, f * im};
        float* d = baseband.data() +
                   (static_cast<std::size_t>(s.firstSlice * transmits + t) * padded + n0) * 2;
        const std::size_t sliceStride = static_cast<std::size_t>(transmits) * lineFloats;
        for (int j = 0; j < s.sliceCount; ++j, d += sliceStride) {
          Float4 sum;
          std::memcpy(&sum, d, sizeof sum);
          sum += w[j] * split;
          std::memcpy(d, &sum, sizeof sum);
        }
      }
    }
    for (int line = 0; line < slices * transmits; ++line) {
      const float* d = baseband.data() + static_cast<std::size_t>(line) * lineFloats;
      float* out = rf.data() + (static_cast<std::size_t>(line) * elements + e) * samples;
      for (int n = 0; n < samples; ++n) {
        // Output sample n sits at padded index n + pad; taps reach `half` either side.
        const float* window = d + 2 * (n + pad - half);
        float re = 0, im = 0;
        for (int k = 0; k <= 2 * half; ++k) {
          const float g = envelope[static_cast<std::size_t>(2 * half - k)];
          re += window[2 * k] * g;
          im += window[2 * k + 1] * g;
        }
        out[n] = re * carrierCos[static_cast<std::size_t>(n)] -
                 im * carrierSin[static_cast<std::size_t>(n)];
      }
    }
  };

  // Rounds of a few elements per thread, so that progress can be reported in between.
  const int round = static_cast<int>(std::max<std::size_t>(4, 2 * compute::cpu::parallelism()));
  for (int first = 0; first < elements; first += round) {
    const int count = std::min(round, elements - first);
    auto body = [&](std::size_t begin, std::size_t end) {
      std::vector<float> baseband;
      for (std::size_t i = begin; i < end; ++i) {
        synthesiseElement(first + static_cast<int>(i), baseband);
      }
    };
    compute::cpu::parallelFor(static_cast<std::size_t>(count), 1, body);
    if (progress) {
      progress(static_cast<double>(first + count) / elements);
    }
  }
}

float peakMagnitude(std::span<const float> rf) {
  float peak = 0;
  for (float v : rf) {
    peak = std::max(peak, std::abs(v));
  }
  return peak;
}

void quantiseFrame(std::span<const float> rf, std::size_t samplesPerLine, double scale,
                   double noiseSigma, std::uint64_t seed, std::uint64_t frame,
                   acquire::SampleType type, std::span<std::byte> out) {
  const std::size_t lines = rf.size() / samplesPerLine;
  auto body = [&](std::size_t begin, std::size_t end) {
    for (std::size_t line = begin; line < end; ++line) {
      std::mt19937_64 rng(
          acquire::detail::mixSeed(seed ^ acquire::detail::mixSeed(frame * 0x100000001ULL + line)));
      const float* in = rf.data() + line * samplesPerLine;
      for (std::size_t n = 0; n < samplesPerLine; ++n) {
        double value = in[n];
        if (noiseSigma > 0) {
          value += noiseSigma * acquire::detail::standardNormal(rng);
        }
        value *= scale;
        const std::size_t index = line * samplesPerLine + n;
        if (type == acquire::SampleType::Int16) {
          const auto q =
              static_cast<std::int16_t>(std::clamp(std::round(value), -32768.0, 32767.0));
          std::memcpy(out.data() + index * sizeof q, &q, sizeof q);
        } else {
          const auto f = static_cast<float>(value);
          std::memcpy(out.data() + index * sizeof f, &f, sizeof f);
        }
      }
    }
  };
  compute::cpu::parallelFor(lines, 0, body);
}

acquire::detail::SimCacheKey rfCacheKey(std::uint64_t configHash, acquire::SampleType type,
                                        std::uint64_t frames,
                                        const acquire::AcquisitionParams& params,
                                        std::uint64_t frameBytes) {
  return acquire::detail::SimCacheKey{configHash,
                                      static_cast<std::uint32_t>(type),
                                      frames,
                                      static_cast<std::uint64_t>(params.transmits()),
                                      static_cast<std::uint64_t>(params.elements()),
                                      static_cast<std::uint64_t>(params.samples),
                                      frameBytes * frames};
}

double quantiseFrames(const SimulatorConfig& config, std::span<const float> rf, std::size_t frames,
                      std::size_t samplesPerLine, std::size_t frameBytes,
                      std::vector<std::byte>& out) {
  const double peak = peakMagnitude(rf);
  const double fullScale = 32767.0;
  const double scale = peak > 0 ? 0.25 * fullScale / peak : 1.0;
  const double noiseSigma =
      config.noise && peak > 0 ? peak * std::pow(10.0, config.noiseDb / 20) : 0.0;
  const std::size_t frameSamples = frames > 0 ? rf.size() / frames : 0;
  out.assign(frameBytes * frames, std::byte{0});
  for (std::size_t k = 0; k < frames; ++k) {
    quantiseFrame(rf.subspan(k * frameSamples, frameSamples), samplesPerLine, scale, noiseSigma,
                  config.seed, k, config.sampleType,
                  std::span(out).subspan(k * frameBytes, frameBytes));
  }
  return scale;
}

}  // namespace cineflow::ultrasound::detail

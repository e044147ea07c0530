#include "oct/oct_simulator.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <complex>
#include <cstring>
#include <mutex>
#include <numbers>
#include <random>

#include "acquire/random.hpp"
#include "acquire/sim_cache.hpp"
#include "compute/cpu/parallel_for.hpp"
#include "process/cpu/fftw_handles.hpp"
#include "process/cpu/fftw_lock.hpp"

namespace cineflow::oct {
namespace {

constexpr double kFirstWavelengthM = 790e-9;
constexpr double kLastWavelengthM = 890e-9;
constexpr double kCentreWavelengthM = 840e-9;
constexpr double kBandwidthM = 40e-9;        // FWHM of the source's power spectrum
constexpr double kReferenceCounts = 2400.0;  // the reference arm's counts at the spectrum's peak
constexpr double kDarkCounts = 150.0;
constexpr double kFixedPatternDepthM = 0.06e-3;  // an internal reflection: one fixed line
constexpr double kFixedPatternAmplitude = 0.01;
constexpr double kScattererSigma = 0.002;  // per depth pixel, complex Gaussian
constexpr double kLayerThicknessM = 0.55e-3;
constexpr double kCheckerM = 1e-3;
// Bump when the synthesis changes what it makes for the same configuration (old caches then miss).
constexpr std::uint64_t kSynthesisVersion = 2;
constexpr std::uint32_t kCacheSampleType = 0x4f435431;  // "OCT1": uint16 spectra

using Complex = std::complex<double>;

// One B-scan's worth of work buffers (per thread).
struct Scratch {
  explicit Scratch(int fine) : profile(static_cast<std::size_t>(fine)) {}
  process::cpu::FftwArray<fftwf_complex> profile;  // depth profile, then its spectrum
};

}  // namespace

std::vector<SimulatedLayer> simulatedLayers(const OctSimulatorConfig& config, double xM,
                                            double yM) {
  const double u = xM / config.widthM, v = yM / config.heightM;
  const double surface = 0.25e-3 + 0.08e-3 * u + 0.05e-3 * v;
  const bool cell = (static_cast<int>(std::floor(xM / kCheckerM)) +
                     static_cast<int>(std::floor(yM / kCheckerM))) %
                        2 ==
                    0;
  return {{0.03, surface},
          {cell ? 0.08 : 0.02, surface + 0.20e-3 + 0.15e-3 * (u * u + v * v)},
          {0.03, surface + kLayerThicknessM}};
}

OctAcquisition OctSimulator::acquisitionOf(const OctSimulatorConfig& config) {
  OctAcquisition acq;
  acq.samples = config.samples;
  acq.ascans = config.ascans + config.flybackAscans;
  acq.flybackAscans = config.flybackAscans;
  acq.bidirectional = config.bidirectional;
  acq.bitDepth = 12;
  acq.wavelengthM = linearWavelengths(config.samples, kFirstWavelengthM, kLastWavelengthM);
  acq.centreWavelengthM = kCentreWavelengthM;
  acq.bandwidthM = kBandwidthM;
  acq.bscansPerVolume = config.bscans;
  acq.lateralStepM = config.widthM / config.ascans;
  acq.elevationStepM = config.heightM / config.bscans;
  acq.lineRateHz = config.frameRateHz * acq.ascans;
  acq.validate();
  return acq;
}

OctSimulator::OctSimulator(const OctSimulatorConfig& config, const acquire::ProgressFn& progress)
    : config_(config), acquisition_(acquisitionOf(config)) {
  acquire::detail::Hasher hash;
  for (const std::uint64_t value :
       {kSynthesisVersion, config.seed, std::uint64_t(config.samples), std::uint64_t(config.ascans),
        std::uint64_t(config.bscans), std::uint64_t(config.scattering ? 1 : 0)}) {
    hash.add(value);
  }
  for (const double value : {config.widthM, config.heightM, config.a2, config.a3, config.noise}) {
    hash.add(value);
  }
  const std::size_t storedValues = static_cast<std::size_t>(config.bscans) *
                                   static_cast<std::size_t>(config.ascans) *
                                   static_cast<std::size_t>(config.samples);
  const acquire::detail::SimCacheKey key{hash.value(),
                                         kCacheSampleType,
                                         static_cast<std::uint64_t>(config.bscans),
                                         1,
                                         static_cast<std::uint64_t>(config.ascans),
                                         static_cast<std::uint64_t>(config.samples),
                                         storedValues * sizeof(std::uint16_t)};
  cachePath_ = acquire::detail::simCachePath("oct-sim", key);
  acquire::detail::CachedFrames cached = acquire::detail::loadOrSynthesise(
      cachePath_, key,
      [&] {
        synthesise(progress);
        acquire::detail::SimCacheContents contents;
        contents.payload.resize(frames_.size() * sizeof(std::uint16_t));
        std::memcpy(contents.payload.data(), frames_.data(), contents.payload.size());
        return contents;
      },
      progress);
  frames_.resize(storedValues);
  std::memcpy(frames_.data(), cached.contents.payload.data(), cached.contents.payload.size());
  cacheOutcome_ = cached.outcome;
  cacheMessage_ = std::move(cached.message);
}

void OctSimulator::synthesise(const acquire::ProgressFn& progress) {
  const OctSimulatorConfig& config = config_;
  const OctAcquisition& acq = acquisition_;
  const int n = config.samples;
  const int fine = 2 * n;  // depth bins of the scattering medium (and k samples of its spectrum)
  const double kMin = acq.kMin(), kMax = acq.kMax();
  const double dk = (kMax - kMin) / (n - 1);
  const double dz = acq.axialPixelInAirM();
  const double k0 = 2.0 * std::numbers::pi / kCentreWavelengthM;
  const double fwhmK =
      2.0 * std::numbers::pi * kBandwidthM / (kCentreWavelengthM * kCentreWavelengthM);

  // Per spectrometer sample: k, the source's power, the dispersion phase, the fine-grid position.
  std::vector<double> k(static_cast<std::size_t>(n)), power(k.size()), fineAt(k.size());
  std::vector<Complex> dispersion(k.size()), fixedPattern(k.size());
  for (int i = 0; i < n; ++i) {
    const auto at = static_cast<std::size_t>(i);
    k[at] = 2.0 * std::numbers::pi / acq.wavelengthM[at];
    const double x = (k[at] - k0) / fwhmK;
    power[at] = std::exp(-4.0 * std::numbers::ln2 * x * x);
    const double u = (k[at] - k0) / (n * dk);  // about the centre wavenumber (oct_params.hpp)
    dispersion[at] = std::polar(1.0, u * u * (config.a2 + config.a3 * u));
    fineAt[at] = (k[at] - kMin) / (0.5 * dk);
    fixedPattern[at] = std::polar(kFixedPatternAmplitude, 2.0 * k[at] * kFixedPatternDepthM);
  }

  process::cpu::FftwPlan plan;
  {
    std::lock_guard lock(process::cpu::fftwPlannerMutex());
    process::cpu::FftwArray<fftwf_complex> probe(static_cast<std::size_t>(fine));
    plan = process::cpu::FftwPlan(
        fftwf_plan_dft_1d(fine, probe.data(), probe.data(), FFTW_BACKWARD, FFTW_ESTIMATE));
  }
  const std::size_t storedPerFrame =
      static_cast<std::size_t>(config.ascans) * static_cast<std::size_t>(n);
  frames_.resize(static_cast<std::size_t>(config.bscans) * storedPerFrame);
  std::atomic<int> done{0};
  std::mutex progressMutex;
  auto makeBscan = [&](std::size_t begin, std::size_t end) {
    Scratch scratch(fine);
    auto* profile = reinterpret_cast<std::complex<float>*>(scratch.profile.data());
    std::vector<double> counts(static_cast<std::size_t>(n));
    for (std::size_t b = begin; b < end; ++b) {
      std::mt19937_64 rng(acquire::detail::mixSeed(config.seed * 1000003u + b));
      const double y = yOf(static_cast<int>(b));
      for (int a = 0; a < config.ascans; ++a) {
        const double x = xOf(a);
        const auto layers = simulatedLayers(config, x, y);
        // The scattering medium: random scatterers on depth pixels between the surface and layer
        // 3; its spectrum on the fine grid by one inverse FFT.
        std::fill(profile, profile + fine, std::complex<float>{});
        const int top = static_cast<int>(std::ceil(layers[0].depthM / dz));
        const int bottom =
            config.scattering ? static_cast<int>(std::floor(layers[2].depthM / dz)) : top;
        for (int m = top; m < bottom && m < fine; ++m) {
          // exp(2 i kMin z_m) folded in, so the FFT's q-th output is the spectrum at kMin + q dk/2.
          const Complex scatterer(acquire::detail::standardNormal(rng),
                                  acquire::detail::standardNormal(rng));
          const Complex value = kScattererSigma * scatterer * std::polar(1.0, 2.0 * kMin * m * dz);
          profile[m] = {static_cast<float>(value.real()), static_cast<float>(value.imag())};
        }
        fftwf_execute_dft(plan.get(), scratch.profile.data(), scratch.profile.data());
        for (int i = 0; i < n; ++i) {
          const auto at = static_cast<std::size_t>(i);
          // The medium: Catmull-Rom on the fine grid.
          const double position = std::clamp(fineAt[at], 0.0, fine - 2.0);
          const int q = static_cast<int>(position);
          const double t = position - q;
          const auto p = [&](int index) {
            const std::complex<float> v = profile[std::clamp(index, 0, fine - 1)];
            return Complex(v.real(), v.imag());
          };
          const Complex p0 = p(q - 1), p1 = p(q), p2 = p(q + 1), p3 = p(q + 2);
          Complex field =
              p1 +
              0.5 * t *
                  (p2 - p0 +
                   t * (2.0 * p0 - 5.0 * p1 + 4.0 * p2 - p3 + t * (3.0 * (p1 - p2) + p3 - p0)));
          for (const SimulatedLayer& layer : layers) {
            field += std::polar(layer.amplitude, 2.0 * k[at] * layer.depthM);
          }
          const double interference = 2.0 * (dispersion[at] * field + fixedPattern[at]).real();
          counts[at] = kDarkCounts + kReferenceCounts * power[at] * (1.0 + interference);
        }
        std::uint16_t* line = frames_.data() + b * storedPerFrame +
                              static_cast<std::size_t>(a) * static_cast<std::size_t>(n);
        for (int i = 0; i < n; ++i) {
          const double mean = counts[static_cast<std::size_t>(i)];
          const double noisy = mean + config.noise * std::sqrt(std::max(mean, 0.0)) *
                                          acquire::detail::standardNormal(rng);
          line[i] = static_cast<std::uint16_t>(std::clamp(std::lround(noisy), 0L, 4095L));
        }
      }
      const int finished = ++done;
      if (progress) {
        std::lock_guard lock(progressMutex);
        progress(static_cast<double>(finished) / config.bscans, "simulating OCT B-scans");
      }
    }
  };
  compute::cpu::parallelFor(static_cast<std::size_t>(config.bscans), 1, makeBscan);
}

double OctSimulator::xOf(int ascan) const {
  return (ascan - 0.5 * (config_.ascans - 1)) * acquisition_.lateralStepM;
}

double OctSimulator::yOf(int bscan) const {
  return (bscan - 0.5 * (config_.bscans - 1)) * acquisition_.elevationStepM;
}

int OctSimulator::storedAscan(std::uint64_t bscan, int raw) const {
  const int imaged = config_.ascans, flyback = config_.flybackAscans;
  const bool reverse = config_.bidirectional && bscan % 2 == 1;
  // Imaged A-scans in scan order; then the return sweep, evenly back over the sample.
  const int forward = raw < imaged
                          ? raw
                          : imaged - 1 -
                                static_cast<int>(std::lround(static_cast<double>(raw - imaged + 1) *
                                                             (imaged - 1) / (flyback + 1)));
  return reverse ? imaged - 1 - forward : forward;
}

void OctSimulator::readFrame(std::uint64_t index, std::span<std::byte> dst,
                             acquire::SliceInfo& slice) {
  const std::size_t bytes = frameBytes();
  if (index >= frameCount() || dst.size() != bytes) {
    throw acquire::SourceError(
        "OCT simulator: frame " + std::to_string(index) + " of " + std::to_string(frameCount()) +
        " into " + std::to_string(dst.size()) + " bytes (expected " + std::to_string(bytes) + ")");
  }
  const auto samples = static_cast<std::size_t>(acquisition_.samples);
  const std::uint16_t* stored =
      frames_.data() + index * static_cast<std::size_t>(config_.ascans) * samples;
  auto* out = reinterpret_cast<std::uint16_t*>(dst.data());
  for (int raw = 0; raw < acquisition_.ascans; ++raw) {
    std::memcpy(out + static_cast<std::size_t>(raw) * samples,
                stored + static_cast<std::size_t>(storedAscan(index, raw)) * samples,
                samples * sizeof(std::uint16_t));
  }
  slice.sliceIndex = static_cast<int>(index);
  slice.elevationM = yOf(static_cast<int>(index));
}

std::string OctSimulator::describe() const {
  return "OCT simulator seed " + std::to_string(config_.seed) + " (" +
         std::to_string(config_.bscans) + " B-scans of " + std::to_string(config_.ascans) + " x " +
         std::to_string(config_.samples) + ")";
}

}  // namespace cineflow::oct

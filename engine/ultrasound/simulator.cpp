#include "ultrasound/simulator.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numbers>
#include <stdexcept>

#include "acquire/sim_cache.hpp"
#include "ultrasound/sim_synthesis.hpp"

namespace cineflow::ultrasound {

namespace {

// Bump when the synthesis changes what it writes for the same configuration, so that old cache
// files stop matching.
constexpr std::uint64_t kSynthesisVersion = 1;

void requirePositive(double value, const char* field) {
  if (!std::isfinite(value) || value <= 0) {
    throw std::invalid_argument(std::string("SimulatorConfig.") + field +
                                " must be positive and finite (got " + std::to_string(value) + ")");
  }
}

void report(const acquire::ProgressFn& progress, double fraction, const std::string& what) {
  if (progress) {
    progress(fraction, what);
  }
}

std::uint64_t cacheHash(const SimulatorConfig& c, const Phantom& phantom) {
  acquire::detail::Hasher h;
  h.add(kSynthesisVersion);
  c.addTo(h);
  // The phantom enters through its scatterers, which covers its config, its seed and its
  // generator's code.
  const auto scatterers = phantom.scatterers();
  h.add(static_cast<std::uint64_t>(scatterers.size()));
  h.addBytes(std::as_bytes(scatterers));
  return h.value();
}

}  // namespace

void SimulatorConfig::addTo(acquire::detail::Hasher& h) const {
  h.add(seed);
  h.add(static_cast<std::uint64_t>(elements));
  h.add(pitchM);
  h.add(centerFrequencyHz);
  h.add(samplingFrequencyHz);
  h.add(fractionalBandwidth);
  h.add(static_cast<std::uint64_t>(anglesDeg.size()));
  for (double a : anglesDeg) {
    h.add(a);
  }
  h.add(soundSpeedMPerS);
  h.add(t0S);
  h.add(maxDepthM);
  h.add(static_cast<std::uint64_t>(slicesPerVolume));
  h.add(elevationHalfSpanM);
  h.add(elevationSigmaM);
  h.add(receiveAcceptanceDeg);
  h.add(static_cast<std::uint64_t>(noise));
  h.add(noiseDb);
  h.add(static_cast<std::uint64_t>(sampleType));
  // frameRateHz only paces replay and does not change a sample, so it is left out.
}

void SimulatorConfig::validate() const {
  if (elements < 1) {
    throw std::invalid_argument("SimulatorConfig.elements must be at least 1");
  }
  requirePositive(pitchM, "pitchM");
  requirePositive(centerFrequencyHz, "centerFrequencyHz");
  requirePositive(samplingFrequencyHz, "samplingFrequencyHz");
  requirePositive(fractionalBandwidth, "fractionalBandwidth");
  requirePositive(soundSpeedMPerS, "soundSpeedMPerS");
  requirePositive(maxDepthM, "maxDepthM");
  requirePositive(elevationSigmaM, "elevationSigmaM");
  requirePositive(frameRateHz, "frameRateHz");
  if (anglesDeg.empty()) {
    throw std::invalid_argument("SimulatorConfig.anglesDeg must hold at least one angle");
  }
  for (double a : anglesDeg) {
    if (!std::isfinite(a) || std::abs(a) >= 90) {
      throw std::invalid_argument("SimulatorConfig.anglesDeg must lie in (-90, 90) degrees");
    }
  }
  if (!std::isfinite(t0S) || t0S >= 2 * maxDepthM / soundSpeedMPerS) {
    throw std::invalid_argument("SimulatorConfig.t0S must be finite and before the deepest echo");
  }
  if (slicesPerVolume < 1) {
    throw std::invalid_argument("SimulatorConfig.slicesPerVolume must be at least 1");
  }
  if (!std::isfinite(elevationHalfSpanM) || elevationHalfSpanM < 0) {
    throw std::invalid_argument("SimulatorConfig.elevationHalfSpanM must be >= 0 and finite");
  }
  if (!std::isfinite(receiveAcceptanceDeg) || receiveAcceptanceDeg <= 0 ||
      receiveAcceptanceDeg >= 90) {
    throw std::invalid_argument("SimulatorConfig.receiveAcceptanceDeg must lie in (0, 90)");
  }
  if (!std::isfinite(noiseDb)) {
    throw std::invalid_argument("SimulatorConfig.noiseDb must be finite");
  }
  // Bounds the precomputed frames (about 0.8 MB each at the defaults) to something sane.
  if (static_cast<double>(samples()) * elements * static_cast<double>(anglesDeg.size()) *
          slicesPerVolume * 4.0 >
      4e9) {
    throw std::invalid_argument("SimulatorConfig: the sweep would need more than 4 GB");
  }
}

int SimulatorConfig::samples() const {
  // Deepest on-axis echo, plus the pulse tail (3.5 sigma_t), rounded up to a multiple of 64.
  const double sigmaT = std::sqrt(2 * std::numbers::ln2) /
                        (std::numbers::pi * fractionalBandwidth * centerFrequencyHz);
  const double echo = std::ceil((2 * maxDepthM / soundSpeedMPerS - t0S) * samplingFrequencyHz);
  const double margin = std::ceil(3.5 * sigmaT * samplingFrequencyHz) * 2;
  const double total = std::max(2.0, echo + margin);
  return static_cast<int>(std::ceil(total / 64) * 64);
}

acquire::AcquisitionParams SimulatorConfig::acquisitionParams() const {
  acquire::AcquisitionParams p;
  p.samplingFrequencyHz = samplingFrequencyHz;
  p.centerFrequencyHz = centerFrequencyHz;
  p.soundSpeedMPerS = soundSpeedMPerS;
  p.t0S = t0S;
  for (double a : anglesDeg) {
    p.anglesRad.push_back(a * std::numbers::pi / 180);
  }
  for (int e = 0; e < elements; ++e) {
    p.elementXM.push_back((e - (elements - 1) / 2.0) * pitchM);
  }
  p.samples = samples();
  p.fractionalBandwidth = fractionalBandwidth;
  p.framesPerVolume = slicesPerVolume;
  return p;
}

Simulator::Simulator(const SimulatorConfig& config, const acquire::ProgressFn& progress)
    : Simulator(config, (config.validate(), Phantom(config.phantom, config.seed)), progress) {}

Simulator::Simulator(const SimulatorConfig& config, Phantom phantom,
                     const acquire::ProgressFn& progress)
    : config_(config), phantom_(std::move(phantom)) {
  config_.validate();
  params_ = config_.acquisitionParams();
  params_.validate();

  const acquire::detail::SimCacheKey key =
      detail::rfCacheKey(cacheHash(config_, phantom_), config_.sampleType,
                         static_cast<std::uint64_t>(slices()), params_, frameBytes());
  cachePath_ = acquire::detail::simCachePath("sim", key);
  acquire::detail::CachedFrames cached = acquire::detail::loadOrSynthesise(
      cachePath_, key,
      [&] {
        synthesise(progress);
        return acquire::detail::SimCacheContents{sampleScale_, std::move(frames_)};
      },
      progress);
  frames_ = std::move(cached.contents.payload);
  sampleScale_ = cached.contents.sampleScale;
  cacheOutcome_ = cached.outcome;
  cacheMessage_ = std::move(cached.message);
}

void Simulator::synthesise(const acquire::ProgressFn& progress) {
  const auto start = std::chrono::steady_clock::now();
  const std::size_t frameSamples = params_.samplesPerFrame();
  std::vector<float> rf(frameSamples * static_cast<std::size_t>(slices()), 0.0f);
  std::vector<double> elevations;
  for (int k = 0; k < slices(); ++k) {
    elevations.push_back(elevationM(k));
  }
  report(progress, 0, "simulating " + std::to_string(slices()) + " slices");
  detail::synthesiseSweep(
      config_, params_, phantom_.scatterers(), elevations, rf, [&](double fraction) {
        report(progress, 0.95 * fraction, "simulating " + std::to_string(slices()) + " slices");
      });

  report(progress, 0.95, "quantising");
  sampleScale_ =
      detail::quantiseFrames(config_, rf, static_cast<std::size_t>(slices()),
                             static_cast<std::size_t>(params_.samples), frameBytes(), frames_);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  char text[64];
  std::snprintf(text, sizeof text, "simulated %d slices in %.2f s", slices(), seconds);
  report(progress, 0.98, text);
}

double Simulator::elevationM(int slice) const {
  if (slices() <= 1) {
    return 0.0;
  }
  return -config_.elevationHalfSpanM + 2 * config_.elevationHalfSpanM * slice / (slices() - 1);
}

void Simulator::readFrame(std::uint64_t index, std::span<std::byte> dst,
                          acquire::SliceInfo& slice) {
  if (index >= frameCount()) {
    throw acquire::SourceError("simulator: frame " + std::to_string(index) + " out of range (" +
                               std::to_string(frameCount()) + " frames)");
  }
  if (dst.size() != frameBytes()) {
    throw acquire::SourceError("simulator: destination holds " + std::to_string(dst.size()) +
                               " bytes, a frame needs " + std::to_string(frameBytes()));
  }
  const int k = static_cast<int>(index);
  std::memcpy(dst.data(), frames_.data() + static_cast<std::size_t>(k) * frameBytes(),
              frameBytes());
  slice.sliceIndex = k;
  slice.elevationM = elevationM(k);
}

std::string Simulator::describe() const {
  return "simulator seed " + std::to_string(config_.seed) + " (" + std::to_string(slices()) +
         " slices, " + std::to_string(params_.transmits()) + " angles, " +
         std::to_string(params_.elements()) + " elements)";
}

}  // namespace cineflow::ultrasound

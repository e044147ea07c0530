#include "ultrasound/flow_simulator.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "ultrasound/sim_synthesis.hpp"

namespace cineflow::ultrasound {
namespace {

// Bump when the synthesis changes what it writes for the same configuration.
constexpr std::uint64_t kFlowSynthesisVersion = 1;

std::uint64_t cacheHash(const FlowSimulatorConfig& c, const FlowPhantom& phantom) {
  acquire::detail::Hasher h;
  h.add(kFlowSynthesisVersion);
  c.system.addTo(h);
  h.add(c.prfHz);
  h.add(static_cast<std::uint64_t>(c.frames));
  // The scene's moving parts enter by their parameters; its scatterers (placed from the seed and
  // the config) by their first frame.
  const FlowPhantomConfig& s = c.scene;
  for (const double v :
       {s.vesselPeakVelocity, s.vesselAngleDeg, s.vesselRadiusM, s.vesselLengthM, s.vesselCentreXM,
        s.vesselCentreZM, s.diskAngularVelocity, s.diskRadiusM, s.diskCentreXM, s.diskCentreZM}) {
    h.add(v);
  }
  h.add(static_cast<std::uint64_t>(s.vessel) * 2 + static_cast<std::uint64_t>(s.disk));
  std::vector<Scatterer> first;
  phantom.scatterersAt(0.0, first);
  h.add(static_cast<std::uint64_t>(first.size()));
  h.addBytes(std::as_bytes(std::span<const Scatterer>(first)));
  return h.value();
}

}  // namespace

SimulatorConfig FlowSimulatorConfig::defaultSystem() {
  SimulatorConfig system;
  system.anglesDeg = {0.0};
  system.maxDepthM = 34e-3;
  system.slicesPerVolume = 1;
  system.elevationHalfSpanM = 0;
  system.frameRateHz = 10;  // what the CPU backend keeps up with in colour Doppler
  return system;
}

void FlowSimulatorConfig::validate() const {
  system.validate();
  if (system.slicesPerVolume != 1) {
    throw std::invalid_argument("FlowSimulatorConfig.system.slicesPerVolume must be 1 (one plane)");
  }
  if (!std::isfinite(prfHz) || prfHz <= 0) {
    throw std::invalid_argument("FlowSimulatorConfig.prfHz must be positive");
  }
  if (frames < 2 || frames > 4096) {
    throw std::invalid_argument("FlowSimulatorConfig.frames must lie in [2, 4096]");
  }
  scene.validate();
}

acquire::AcquisitionParams FlowSimulatorConfig::acquisitionParams() const {
  acquire::AcquisitionParams p = system.acquisitionParams();
  p.framesPerVolume = 0;
  p.pulseRepetitionFrequencyHz = prfHz;
  return p;
}

FlowSimulator::FlowSimulator(const FlowSimulatorConfig& config, const acquire::ProgressFn& progress)
    : config_((config.validate(), config)), phantom_(config.scene, config.system.seed) {
  params_ = config_.acquisitionParams();
  params_.validate();
  const acquire::detail::SimCacheKey key =
      detail::rfCacheKey(cacheHash(config_, phantom_), config_.system.sampleType,
                         static_cast<std::uint64_t>(config_.frames), params_, frameBytes());
  acquire::detail::CachedFrames cached = acquire::detail::loadOrSynthesise(
      acquire::detail::simCachePath("simflow", key), key,
      [&] {
        synthesise(progress);
        return acquire::detail::SimCacheContents{sampleScale_, std::move(frames_)};
      },
      progress);
  frames_ = std::move(cached.contents.payload);
  sampleScale_ = cached.contents.sampleScale;
  cacheOutcome_ = cached.outcome;
}

void FlowSimulator::synthesise(const acquire::ProgressFn& progress) {
  const std::size_t frameSamples = params_.samplesPerFrame();
  const auto frames = static_cast<std::size_t>(config_.frames);
  std::vector<float> rf(frameSamples * frames, 0.0f);
  const double elevation[] = {0.0};
  std::vector<Scatterer> scatterers;
  for (std::size_t k = 0; k < frames; ++k) {
    if (progress) {
      progress(0.95 * static_cast<double>(k) / static_cast<double>(frames),
               "simulating flow frame " + std::to_string(k + 1) + " of " + std::to_string(frames));
    }
    phantom_.scatterersAt(static_cast<double>(k) / config_.prfHz, scatterers);
    detail::synthesiseSweep(config_.system, params_, scatterers, elevation,
                            std::span(rf).subspan(k * frameSamples, frameSamples), {});
  }
  sampleScale_ = detail::quantiseFrames(
      config_.system, rf, frames, static_cast<std::size_t>(params_.samples), frameBytes(), frames_);
}

void FlowSimulator::readFrame(std::uint64_t index, std::span<std::byte> dst,
                              acquire::SliceInfo& slice) {
  if (index >= frameCount()) {
    throw acquire::SourceError("flow simulator: frame " + std::to_string(index) +
                               " out of range (" + std::to_string(frameCount()) + " frames)");
  }
  if (dst.size() != frameBytes()) {
    throw acquire::SourceError("flow simulator: destination holds " + std::to_string(dst.size()) +
                               " bytes, a frame needs " + std::to_string(frameBytes()));
  }
  std::memcpy(dst.data(), frames_.data() + index * frameBytes(), frameBytes());
  slice = acquire::SliceInfo{};
}

std::string FlowSimulator::describe() const {
  char text[160];
  std::snprintf(text, sizeof text,
                "flow simulator seed %llu (%d frames at a PRF of %.0f Hz: a vessel at %.2f m/s, "
                "a disk at %.0f rad/s)",
                static_cast<unsigned long long>(config_.system.seed), config_.frames, config_.prfHz,
                config_.scene.vesselPeakVelocity, config_.scene.diskAngularVelocity);
  return text;
}

}  // namespace cineflow::ultrasound

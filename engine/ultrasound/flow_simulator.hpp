#pragma once
// FlowSimulator: the built-in source of colour Doppler's known answers ("sim-flow"). It synthesises
// plane-wave RF of the flow phantom (flow_phantom.hpp: static tissue, a vessel with parabolic flow,
// a rotating disk) at `frames` instants 1 / PRF apart, with the Simulator's signal model
// (simulator.hpp) in one plane, once, in the constructor (cached on disk like the Simulator's
// frames), and then replays them. The acquisition states its PRF (pulseRepetitionFrequencyHz):
// the slow-time rate of the frames, not the rate at which they are replayed for display.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "acquire/sim_cache.hpp"
#include "ultrasound/flow_phantom.hpp"
#include "ultrasound/simulator.hpp"
#include "ultrasound/ultrasound_source.hpp"

namespace cineflow::ultrasound {

struct FlowSimulatorConfig {
  // The probe and system: the Simulator's fields (one slice, one plane wave at 0 degrees, 34 mm
  // of depth and a display rate of 10 frames/s by default); slicesPerVolume must stay 1.
  SimulatorConfig system = defaultSystem();
  double prfHz = 5000;  // the frames' slow-time rate
  int frames = 64;      // synthesised, then replayed in a loop
  FlowPhantomConfig scene;
  static SimulatorConfig defaultSystem();
  // Throws std::invalid_argument naming the first bad field.
  void validate() const;
  acquire::AcquisitionParams acquisitionParams() const;
};

class FlowSimulator final : public UltrasoundSource {
 public:
  explicit FlowSimulator(const FlowSimulatorConfig& config,
                         const acquire::ProgressFn& progress = {});

  const acquire::AcquisitionParams& params() const override { return params_; }
  acquire::SampleType sampleType() const override { return config_.system.sampleType; }
  double frameRateHz() const override { return config_.system.frameRateHz; }
  std::uint64_t frameCount() const override { return static_cast<std::uint64_t>(config_.frames); }
  // Copies frame `index` (< frames); throws SourceError for an index out of range or a wrongly
  // sized `dst`. Thread-safe: the frames are immutable after construction.
  void readFrame(std::uint64_t index, std::span<std::byte> dst, acquire::SliceInfo& slice) override;
  std::string describe() const override;

  const FlowSimulatorConfig& config() const { return config_; }
  const FlowPhantom& phantom() const { return phantom_; }
  acquire::detail::CacheOutcome cacheOutcome() const { return cacheOutcome_; }

 private:
  void synthesise(const acquire::ProgressFn& progress);

  FlowSimulatorConfig config_;
  FlowPhantom phantom_;
  acquire::AcquisitionParams params_;
  std::vector<std::byte> frames_;
  double sampleScale_ = 1;
  acquire::detail::CacheOutcome cacheOutcome_ = acquire::detail::CacheOutcome::Written;
};

}  // namespace cineflow::ultrasound

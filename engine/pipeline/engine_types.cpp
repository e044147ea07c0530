#include "pipeline/engine_types.hpp"

#include "base/enum_names.hpp"

#include <stdexcept>

namespace cineflow::pipeline {

namespace {

constexpr base::Named<OverflowPolicy> kOverflowPolicies[] = {{OverflowPolicy::Drop, "drop"},
                                                             {OverflowPolicy::Block, "block"},
                                                             {OverflowPolicy::Latest, "latest"}};
constexpr base::Named<DamagedFramePolicy> kDamagedFramePolicies[] = {
    {DamagedFramePolicy::Stop, "stop"}, {DamagedFramePolicy::Skip, "skip"}};
constexpr base::Named<EngineState> kEngineStates[] = {{EngineState::Stopped, "stopped"},
                                                      {EngineState::Running, "running"},
                                                      {EngineState::Finished, "finished"},
                                                      {EngineState::Failed, "failed"}};

}  // namespace

const char* toString(OverflowPolicy policy) noexcept {
  return base::nameIn(kOverflowPolicies, policy);
}

OverflowPolicy parseOverflowPolicy(const std::string& text) {
  return base::parseIn(kOverflowPolicies, text, "overflow policy");
}

const char* toString(DamagedFramePolicy policy) noexcept {
  return base::nameIn(kDamagedFramePolicies, policy);
}

DamagedFramePolicy parseDamagedFramePolicy(const std::string& text) {
  return base::parseIn(kDamagedFramePolicies, text, "damaged-frame policy");
}

const char* toString(EngineState state) noexcept {
  return base::nameIn(kEngineStates, state);
}

void EngineConfig::validate() const {
  auto require = [](bool ok, const std::string& message) {
    if (!ok)
      throw std::invalid_argument(message);
  };
  require(hostRingSlots >= 1 && hostRingSlots <= 1024, "hostRingSlots must be in [1, 1024]");
  require(inFlightSlots >= 2 && inFlightSlots <= 16, "inFlightSlots must be in [2, 16]");
  require(cineloopFrames >= 1 && cineloopFrames <= 100000, "cineloopFrames must be in [1, 100000]");
  require(frameRateHz >= 0 && frameRateHz <= 100000, "frameRateHz must be in [0, 100000]");
  require(statsWindow >= 1 && statsWindow <= 100000, "statsWindow must be in [1, 100000]");
  require(framesPerVolume >= -1 && framesPerVolume <= 4096,
          "framesPerVolume must be -1 (the source's), 0 (no volumes) or in [1, 4096]");
}

StageStats toStageStats(const std::string& name, const profile::Summary& m) {
  return StageStats{name, {}, m.count, m.last, m.min, m.median, m.p99, m.max, m.mean, m.stddev};
}

}  // namespace cineflow::pipeline

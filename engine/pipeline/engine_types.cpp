#include "pipeline/engine_types.hpp"

#include <stdexcept>

namespace cineflow::pipeline {

const char* toString(OverflowPolicy policy) noexcept {
  return policy == OverflowPolicy::Block ? "block" : "drop";
}

OverflowPolicy parseOverflowPolicy(const std::string& text) {
  if (text == "block")
    return OverflowPolicy::Block;
  if (text == "drop")
    return OverflowPolicy::Drop;
  throw std::invalid_argument("unknown overflow policy '" + text + "': expected block or drop");
}

const char* toString(DamagedFramePolicy policy) noexcept {
  return policy == DamagedFramePolicy::Stop ? "stop" : "skip";
}

DamagedFramePolicy parseDamagedFramePolicy(const std::string& text) {
  if (text == "stop")
    return DamagedFramePolicy::Stop;
  if (text == "skip")
    return DamagedFramePolicy::Skip;
  throw std::invalid_argument("unknown damaged-frame policy '" + text + "': expected stop or skip");
}

const char* toString(EngineState state) noexcept {
  switch (state) {
    case EngineState::Stopped:
      return "stopped";
    case EngineState::Running:
      return "running";
    case EngineState::Finished:
      return "finished";
    case EngineState::Failed:
      return "failed";
  }
  return "unknown";
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

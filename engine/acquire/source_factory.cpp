#include "acquire/source_factory.hpp"

#include "acquire/rf_file_source.hpp"
#include "acquire/simulator.hpp"

namespace cineflow::acquire {

std::unique_ptr<FrameSource> openSource(const std::string& spec, double frameRateHz,
                                        const ProgressFn& progress) {
  if (spec == "sim") {
    SimulatorConfig config;
    if (frameRateHz > 0) {
      config.frameRateHz = frameRateHz;
    }
    return std::make_unique<Simulator>(config, progress);
  }
  return std::make_unique<RfFileSource>(spec, frameRateHz > 0 ? frameRateHz : 20.0);
}

}  // namespace cineflow::acquire

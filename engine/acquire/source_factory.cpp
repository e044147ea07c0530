#include "acquire/source_factory.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "acquire/rf_file_source.hpp"
#include "acquire/simulator.hpp"

namespace cineflow::acquire {

bool isMatFile(const std::string& spec) {
  std::string extension = std::filesystem::path(spec).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension == ".mat";
}

std::unique_ptr<FrameSource> openSource(const std::string& spec, double frameRateHz,
                                        const ProgressFn& progress, const MatMapping& matMapping) {
  if (spec == "sim") {
    SimulatorConfig config;
    if (frameRateHz > 0) {
      config.frameRateHz = frameRateHz;
    }
    return std::make_unique<Simulator>(config, progress);
  }
  const double rate = frameRateHz > 0 ? frameRateHz : 20.0;
  if (isMatFile(spec)) {
    return std::make_unique<MatSource>(importMat(spec, matMapping),
                                       std::filesystem::path(spec).filename().string(), rate);
  }
  return std::make_unique<RfFileSource>(spec, rate);
}

}  // namespace cineflow::acquire

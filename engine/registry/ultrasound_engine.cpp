#include "registry/ultrasound_engine.hpp"

namespace cineflow::ultrasound {

const acquire::AcquisitionParams* acquisitionOf(const pipeline::Engine& engine) {
  const acquire::UltrasoundSource* source = acquire::asUltrasound(engine.source());
  return source != nullptr ? &source->params() : nullptr;
}

process::ImagingParams imagingOf(const pipeline::Engine& engine) {
  const auto settings = engine.settings();
  if (const auto* ultrasound = dynamic_cast<const UltrasoundSettings*>(settings.get())) {
    return ultrasound->imaging();
  }
  return {};
}

void setImaging(pipeline::Engine& engine, const process::ImagingParams& imaging) {
  engine.setSettings(makeSettings(imaging));
}

}  // namespace cineflow::ultrasound

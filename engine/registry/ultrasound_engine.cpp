#include "registry/ultrasound_engine.hpp"

namespace cineflow::ultrasound {

const acquire::AcquisitionParams* acquisitionOf(const pipeline::Engine& engine) {
  const ultrasound::UltrasoundSource* source = ultrasound::asUltrasound(engine.source());
  return source != nullptr ? &source->params() : nullptr;
}

ultrasound::ImagingParams imagingOf(const pipeline::Engine& engine) {
  const auto settings = engine.settings();
  if (const auto* ultrasound = dynamic_cast<const UltrasoundSettings*>(settings.get())) {
    return ultrasound->imaging();
  }
  return {};
}

void setImaging(pipeline::Engine& engine, const ultrasound::ImagingParams& imaging) {
  engine.setSettings(makeSettings(imaging));
}

}  // namespace cineflow::ultrasound

#include "registry/oct_engine.hpp"

namespace cineflow::oct {

const OctAcquisition* acquisitionOf(const pipeline::Engine& engine) {
  const OctSource* source = asOct(engine.source());
  return source != nullptr ? &source->acquisition() : nullptr;
}

OctParams paramsOf(const pipeline::Engine& engine) {
  const auto settings = engine.settings();
  if (const auto* oct = dynamic_cast<const OctSettings*>(settings.get())) {
    return oct->params();
  }
  return {};
}

void setParams(pipeline::Engine& engine, OctParams params) {
  engine.setSettings(makeSettings(std::move(params)));
}

}  // namespace cineflow::oct

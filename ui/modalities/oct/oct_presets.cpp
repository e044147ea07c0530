#include "modalities/oct/oct_presets.hpp"

#include "modality/preset_fields.hpp"

namespace cineflow::ui {

QString OctPresets::name() const {
  return QStringLiteral("oct");
}

std::shared_ptr<const PresetSection> OctPresets::parse(PresetFields* section,
                                                       PresetFields* display) const {
  (void)display;  // OCT keeps no keys of its own there
  if (section == nullptr) {
    return nullptr;
  }
  auto parsed = std::make_shared<OctPresetSection>();
  parsed->window = section->parsed(QStringLiteral("window"), oct::parseSpectralWindow);
  parsed->refractiveIndex = section->number(QStringLiteral("refractive_index"), 1.0, 4.0);
  if (!parsed->window && !parsed->refractiveIndex) {
    return nullptr;
  }
  return parsed;
}

}  // namespace cineflow::ui

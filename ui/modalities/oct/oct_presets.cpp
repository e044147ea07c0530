#include "modalities/oct/oct_presets.hpp"

#include "modality/preset_fields.hpp"

namespace cineflow::ui {

QString OctPresets::name() const {
  return QStringLiteral("oct");
}

QString OctPresets::title() const {
  return QStringLiteral("OCT");
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

OctPresetSection OctPresetSection::captured(const oct::OctParams& params) {
  OctPresetSection section;
  section.window = params.window;
  section.refractiveIndex = params.refractiveIndex;
  return section;
}

QJsonObject OctPresets::write(const PresetSection& section, QJsonObject& display) const {
  (void)display;
  const auto& oct = static_cast<const OctPresetSection&>(section);
  QJsonObject written;
  if (oct.window) {
    written[QStringLiteral("window")] = QString::fromLatin1(oct::toString(*oct.window));
  }
  if (oct.refractiveIndex) {
    written[QStringLiteral("refractive_index")] = *oct.refractiveIndex;
  }
  return written;
}

}  // namespace cineflow::ui

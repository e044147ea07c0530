#pragma once
// OCT's preset section (modality/modality_presets.hpp): "oct" (spectral window, refractive
// index), read from a preset file, captured from what is in effect and written back. Qt Core only.

#include <optional>

#include "modality/modality_presets.hpp"
#include "oct/oct_params.hpp"

namespace cineflow::ui {

struct OctPresetSection : PresetSection {
  std::optional<oct::SpectralWindow> window;
  std::optional<double> refractiveIndex;

  // What of `params` a preset holds, as in effect now.
  static OctPresetSection captured(const oct::OctParams& params);
};

class OctPresets : public ModalityPresets {
 public:
  QString name() const override;
  QString title() const override;
  std::shared_ptr<const PresetSection> parse(PresetFields* section,
                                             PresetFields* display) const override;
  QJsonObject write(const PresetSection& section, QJsonObject& display) const override;
};

}  // namespace cineflow::ui

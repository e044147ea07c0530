#pragma once
// OCT's preset section (modality/modality_presets.hpp): "oct" (spectral window, refractive
// index). Qt Core only.

#include <optional>

#include "modality/modality_presets.hpp"
#include "oct/oct_params.hpp"

namespace cineflow::ui {

struct OctPresetSection : PresetSection {
  std::optional<oct::SpectralWindow> window;
  std::optional<double> refractiveIndex;
};

class OctPresets : public ModalityPresets {
 public:
  QString name() const override;
  std::shared_ptr<const PresetSection> parse(PresetFields* section,
                                             PresetFields* display) const override;
};

}  // namespace cineflow::ui

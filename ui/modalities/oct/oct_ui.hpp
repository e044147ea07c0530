#pragma once
// OCT's side of the GUI's modality seam (modality/modality_ui.hpp): the OCT simulator, the OCT
// panel, and the preset section "oct".

#include <optional>

#include "modality/modality_ui.hpp"
#include "oct/oct_params.hpp"

namespace cineflow::ui {

struct OctPresetSection : PresetSection {
  std::optional<oct::SpectralWindow> window;
  std::optional<double> refractiveIndex;
};

class OctUi : public ModalityUi {
 public:
  QString name() const override;
  std::vector<SourceButton> sourceButtons() const override;
  std::unique_ptr<ModalityPanels> createPanels(EngineController& controller,
                                               QWidget& parent) const override;
  std::shared_ptr<const PresetSection> parsePreset(PresetFields* section,
                                                   PresetFields* display) const override;
};

}  // namespace cineflow::ui

#pragma once
// OCT's side of the GUI's modality seam (modality/modality_ui.hpp): the OCT simulator and the OCT
// panel (which applies the preset section of oct_presets.hpp).

#include "modality/modality_ui.hpp"

namespace cineflow::ui {

class OctUi : public ModalityUi {
 public:
  QString name() const override;
  std::vector<SourceButton> sourceButtons() const override;
  std::unique_ptr<ModalityPanels> createPanels(EngineController& controller,
                                               QWidget& parent) const override;
};

}  // namespace cineflow::ui

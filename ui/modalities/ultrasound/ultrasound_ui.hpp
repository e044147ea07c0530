#pragma once
// Ultrasound's side of the GUI's modality seam (modality/modality_ui.hpp): the phantom and flow
// simulators, the imaging and Doppler panels (which apply the preset section of
// ultrasound_presets.hpp), and the MATLAB import (a .mat file opens through its mapping dialog).

#include "modality/modality_ui.hpp"

namespace cineflow::ui {

class UltrasoundUi : public ModalityUi {
 public:
  QString name() const override;
  std::vector<SourceButton> sourceButtons() const override;
  std::unique_ptr<ModalityPanels> createPanels(EngineController& controller,
                                               QWidget& parent) const override;
  QList<QAction*> createImportActions(EngineController& controller, QWidget& parent) const override;
  bool takeOpenRequest(const QString& spec, EngineController& controller,
                       QWidget* parent) const override;
};

// File > Import MATLAB recording… (and a MATLAB file chosen as a recording): the mapping dialog,
// starting from the last mapping and `path` (empty: the last file), then the source opened and
// started through `controller`. Returns false when the operator cancelled.
bool importMatlabRecording(EngineController& controller, const QString& path, QWidget* parent);

}  // namespace cineflow::ui

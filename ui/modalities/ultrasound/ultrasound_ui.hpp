#pragma once
// Ultrasound's side of the GUI's modality seam (modality/modality_ui.hpp): the phantom and flow
// simulators, the imaging and Doppler panels, the preset section "ultrasound" (with the flow
// keys of "display"), and the MATLAB import (a .mat file opens through its mapping dialog).

#include <optional>
#include <string>

#include "modality/modality_ui.hpp"
#include "ultrasound/imaging_params.hpp"

namespace cineflow::ui {

struct UltrasoundPresetSection : PresetSection {
  std::optional<process::ImagingMode> mode;
  std::optional<double> fNumber;
  std::optional<process::Apodisation> apodisation;
  std::optional<process::ImagingGrid> grid;  // metres
  std::optional<double> iqBandwidthPercent;
  // Colour and power Doppler: the ensemble, the wall filter ("regression:1", ...), the averaging
  // window ("3x3"), and how flow is shown (threshold over the black level, B-mode priority).
  std::optional<int> dopplerEnsemble;
  std::optional<process::EnsembleMode> dopplerEnsembleMode;
  std::optional<std::string> wallFilter;
  std::optional<std::string> dopplerAverage;
  std::optional<double> flowThresholdDb, flowPriority;

  bool setsImaging() const;  // anything of the imaging parameters (not only the flow look)
};

class UltrasoundUi : public ModalityUi {
 public:
  QString name() const override;
  std::vector<SourceButton> sourceButtons() const override;
  std::unique_ptr<ModalityPanels> createPanels(EngineController& controller,
                                               QWidget& parent) const override;
  std::shared_ptr<const PresetSection> parsePreset(PresetFields* section,
                                                   PresetFields* display) const override;
  QList<QAction*> createImportActions(EngineController& controller, QWidget& parent) const override;
  bool takeOpenRequest(const QString& spec, EngineController& controller,
                       QWidget* parent) const override;
};

// File > Import MATLAB recording… (and a MATLAB file chosen as a recording): the mapping dialog,
// starting from the last mapping and `path` (empty: the last file), then the source opened and
// started through `controller`. Returns false when the operator cancelled.
bool importMatlabRecording(EngineController& controller, const QString& path, QWidget* parent);

}  // namespace cineflow::ui

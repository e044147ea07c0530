#pragma once
// Ultrasound's preset section (modality/modality_presets.hpp): "ultrasound" (mode, f-number,
// apodisation, grid, I/Q bandwidth, Doppler ensemble, wall filter, averaging) and the flow keys
// of "display" (threshold, B-mode priority): read from a preset file, captured from what is in
// effect and written back. Qt Core only.

#include <optional>
#include <string>

#include "modality/modality_presets.hpp"
#include "ultrasound/imaging_params.hpp"

namespace cineflow::ui {

struct UltrasoundPresetSection : PresetSection {
  std::optional<ultrasound::ImagingMode> mode;
  std::optional<double> fNumber;
  std::optional<ultrasound::Apodisation> apodisation;
  std::optional<ultrasound::ImagingGrid> grid;  // metres
  std::optional<double> iqBandwidthPercent;
  // Colour and power Doppler: the ensemble, the wall filter ("regression:1", ...), the averaging
  // window ("3x3"), and how flow is shown (threshold over the black level, B-mode priority).
  std::optional<int> dopplerEnsemble;
  std::optional<ultrasound::EnsembleMode> dopplerEnsembleMode;
  std::optional<std::string> wallFilter;
  std::optional<std::string> dopplerAverage;
  std::optional<double> flowThresholdDb, flowPriority;

  bool setsImaging() const;  // anything of the imaging parameters (not only the flow look)

  // Everything of `imaging` a preset holds, and how flow is shown, as in effect now. An I/Q
  // bandwidth of 0 (the acquisition's own) is left out: such a preset leaves the bandwidth as it
  // finds it.
  static UltrasoundPresetSection captured(const ultrasound::ImagingParams& imaging,
                                          double flowThresholdDb, double flowPriority);
};

class UltrasoundPresets : public ModalityPresets {
 public:
  QString name() const override;
  QString title() const override;
  std::shared_ptr<const PresetSection> parse(PresetFields* section,
                                             PresetFields* display) const override;
  QJsonObject write(const PresetSection& section, QJsonObject& display) const override;
};

}  // namespace cineflow::ui

#include "modalities/ultrasound/ultrasound_presets.hpp"

#include "modality/preset_fields.hpp"

namespace cineflow::ui {

bool UltrasoundPresetSection::setsImaging() const {
  return mode || fNumber || apodisation || grid || iqBandwidthPercent || dopplerEnsemble ||
         dopplerEnsembleMode || wallFilter || dopplerAverage;
}

QString UltrasoundPresets::name() const {
  return QStringLiteral("ultrasound");
}

std::shared_ptr<const PresetSection> UltrasoundPresets::parse(PresetFields* us,
                                                              PresetFields* display) const {
  auto section = std::make_shared<UltrasoundPresetSection>();
  if (display != nullptr) {
    section->flowThresholdDb = display->number(QStringLiteral("flow_threshold_db"), 0, 60);
    section->flowPriority = display->number(QStringLiteral("flow_priority"), 0, 1);
  }
  if (us != nullptr) {
    section->mode = us->parsed(QStringLiteral("mode"), ultrasound::parseImagingMode);
    section->fNumber = us->number(QStringLiteral("f_number"), 0.1, 20);
    section->apodisation = us->parsed(QStringLiteral("apodisation"), ultrasound::parseApodisation);
    section->grid =
        us->parsed(QStringLiteral("grid_mm"), ultrasound::ImagingGrid::parseMillimetres);
    section->iqBandwidthPercent = us->number(QStringLiteral("iq_bandwidth_percent"), 1, 200);
    section->dopplerEnsemble = us->wholeNumber(QStringLiteral("doppler_ensemble"),
                                               ultrasound::kMinEnsemble, ultrasound::kMaxEnsemble);
    section->dopplerEnsembleMode =
        us->parsed(QStringLiteral("doppler_ensemble_mode"), ultrasound::parseEnsembleMode);
    section->wallFilter = us->parsed(QStringLiteral("wall_filter"), [](const std::string& spec) {
      ultrasound::DopplerParams().applyWallFilterSpec(spec);  // throws for a bad one
      return spec;
    });
    section->dopplerAverage =
        us->parsed(QStringLiteral("doppler_average"), [](const std::string& spec) {
          ultrasound::DopplerParams().applyAveragingSpec(spec);
          return spec;
        });
  }
  if (!section->setsImaging() && !section->flowThresholdDb && !section->flowPriority) {
    return nullptr;
  }
  return section;
}

}  // namespace cineflow::ui

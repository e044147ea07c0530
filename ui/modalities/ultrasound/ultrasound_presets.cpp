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

QString UltrasoundPresets::title() const {
  return QStringLiteral("Ultrasound");
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

UltrasoundPresetSection UltrasoundPresetSection::captured(const ultrasound::ImagingParams& imaging,
                                                          double flowThresholdDb,
                                                          double flowPriority) {
  UltrasoundPresetSection section;
  section.mode = imaging.mode;
  section.fNumber = imaging.fNumber;
  section.apodisation = imaging.apodisation;
  section.grid = imaging.grid;
  if (imaging.iqBandwidthRel > 0) {
    section.iqBandwidthPercent = imaging.iqBandwidthRel * 100.0;
  }
  const ultrasound::DopplerParams& doppler = imaging.doppler;
  section.dopplerEnsemble = doppler.ensemble;
  section.dopplerEnsembleMode = doppler.ensembleMode;
  section.wallFilter = doppler.wallFilterSpec();
  section.dopplerAverage = doppler.averagingSpec();
  section.flowThresholdDb = flowThresholdDb;
  section.flowPriority = flowPriority;
  return section;
}

QJsonObject UltrasoundPresets::write(const PresetSection& section, QJsonObject& display) const {
  const auto& us = static_cast<const UltrasoundPresetSection&>(section);
  if (us.flowThresholdDb) {
    display[QStringLiteral("flow_threshold_db")] = *us.flowThresholdDb;
  }
  if (us.flowPriority) {
    display[QStringLiteral("flow_priority")] = *us.flowPriority;
  }
  QJsonObject written;
  const auto text = [](const std::string& value) { return QString::fromStdString(value); };
  if (us.mode) {
    written[QStringLiteral("mode")] = QString::fromLatin1(ultrasound::toString(*us.mode));
  }
  if (us.fNumber) {
    written[QStringLiteral("f_number")] = *us.fNumber;
  }
  if (us.apodisation) {
    written[QStringLiteral("apodisation")] =
        QString::fromLatin1(ultrasound::toString(*us.apodisation));
  }
  if (us.grid) {
    written[QStringLiteral("grid_mm")] = text(us.grid->toMillimetreString());
  }
  if (us.iqBandwidthPercent) {
    written[QStringLiteral("iq_bandwidth_percent")] = *us.iqBandwidthPercent;
  }
  if (us.dopplerEnsemble) {
    written[QStringLiteral("doppler_ensemble")] = *us.dopplerEnsemble;
  }
  if (us.dopplerEnsembleMode) {
    written[QStringLiteral("doppler_ensemble_mode")] =
        QString::fromLatin1(ultrasound::toString(*us.dopplerEnsembleMode));
  }
  if (us.wallFilter) {
    written[QStringLiteral("wall_filter")] = text(*us.wallFilter);
  }
  if (us.dopplerAverage) {
    written[QStringLiteral("doppler_average")] = text(*us.dopplerAverage);
  }
  return written;
}

}  // namespace cineflow::ui

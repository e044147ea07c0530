// MainWindow's presets (presets.hpp): the toolbar's picker, which lists the presets that fit the
// open source's modality, and applying one: the display controls, then the modality's imaging
// parameters through the engine (a refusal is shown, the rest stays applied).

#include <QComboBox>
#include <QLabel>
#include <QToolBar>

#include "acquisition/acquisition_panel.hpp"
#include "bridge/engine_controller.hpp"
#include "modalities/oct/oct_panel.hpp"
#include "modalities/ultrasound/doppler_panel.hpp"
#include "modalities/ultrasound/imaging_panel.hpp"
#include "oct/oct_modality.hpp"
#include "registry/oct_engine.hpp"
#include "shell/main_window.hpp"
#include "view2d/display_controls.hpp"

namespace cineflow::ui {

void MainWindow::createPresetPicker(QToolBar& toolBar) {
  presetBox_ = new QComboBox(this);
  presetBox_->setObjectName(QStringLiteral("presetBox"));
  presetBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  presetBox_->setToolTip(
      tr("Imaging and display presets: the shipped ones and your own (*.json in %1)")
          .arg(presetFolder()));
  toolBar.addWidget(new QLabel(tr("Preset"), this));
  toolBar.addWidget(presetBox_);
  reloadPresets();
  connect(presetBox_, &QComboBox::activated, this, [this](int index) {
    const int preset = presetBox_->itemData(index).toInt();
    if (preset >= 0 && preset < static_cast<int>(presets_.size())) {
      applyPreset(presets_[static_cast<std::size_t>(preset)]);
    }
  });
  connect(controller_.get(), &EngineController::sourceOpened, this, [this] { listPresets(); });
}

void MainWindow::reloadPresets() {
  LoadedPresets loaded = loadPresets(presetFolder());
  presets_ = std::move(loaded.presets);
  for (const QString& refused : loaded.refused) {
    showMessage(tr("Preset refused: %1").arg(refused), true);
  }
  listPresets();
}

QString MainWindow::sourceModality() const {
  return oct::acquisitionOf(controller_->engine()) != nullptr ? QStringLiteral("oct")
                                                              : QStringLiteral("ultrasound");
}

void MainWindow::listPresets() {
  const QSignalBlocker blocker(presetBox_);
  presetBox_->clear();
  presetBox_->addItem(tr("Choose…"), -1);
  const QString modality = sourceModality();
  for (std::size_t i = 0; i < presets_.size(); ++i) {
    if (presetFits(presets_[i], modality)) {
      presetBox_->addItem(presets_[i].name, static_cast<int>(i));
      presetBox_->setItemData(presetBox_->count() - 1, presets_[i].origin, Qt::ToolTipRole);
    }
  }
}

QString MainWindow::applyPreset(const Preset& preset) {
  if (!presetFits(preset, sourceModality())) {
    const QString error = tr("Preset %1 is for %2 sources").arg(preset.name, preset.modality);
    showMessage(error, true);
    return error;
  }
  if (preset.colourMap) {
    displayControls_->setColourMap(*preset.colourMap);
  }
  if (preset.dynamicRangeDb) {
    displayControls_->setDynamicRangeDb(*preset.dynamicRangeDb);
  }
  if (preset.gainDb) {
    displayControls_->setGainDb(*preset.gainDb);
  }
  if (preset.flowThresholdDb || preset.flowPriority) {
    DopplerPanel& doppler = acquisitionPanel_->doppler();
    FlowLook look = doppler.flowLook();
    look.powerThresholdDb = preset.flowThresholdDb.value_or(look.powerThresholdDb);
    look.priority = preset.flowPriority.value_or(look.priority);
    doppler.setFlowLook(look);
  }
  QString error;
  if (sourceModality() == QStringLiteral("oct")) {
    if (preset.octWindow || preset.refractiveIndex) {
      oct::OctParams params = oct::paramsOf(controller_->engine());
      params.window = preset.octWindow.value_or(params.window);
      params.refractiveIndex = preset.refractiveIndex.value_or(params.refractiveIndex);
      error = controller_->setSettings(oct::makeSettings(std::move(params)));
      acquisitionPanel_->oct().load();
    }
  } else if (preset.mode || preset.fNumber || preset.apodisation || preset.grid ||
             preset.iqBandwidthPercent || preset.dopplerEnsemble || preset.dopplerEnsembleMode ||
             preset.wallFilter || preset.dopplerAverage) {
    process::ImagingParams params = controller_->imagingParams();
    params.mode = preset.mode.value_or(params.mode);
    params.fNumber = preset.fNumber.value_or(params.fNumber);
    params.apodisation = preset.apodisation.value_or(params.apodisation);
    params.grid = preset.grid.value_or(params.grid);
    if (preset.iqBandwidthPercent) {
      params.iqBandwidthRel = *preset.iqBandwidthPercent / 100.0;
    }
    process::DopplerParams& doppler = params.doppler;
    doppler.ensemble = preset.dopplerEnsemble.value_or(doppler.ensemble);
    doppler.ensembleMode = preset.dopplerEnsembleMode.value_or(doppler.ensembleMode);
    if (preset.wallFilter) {
      doppler.applyWallFilterSpec(*preset.wallFilter);
    }
    if (preset.dopplerAverage) {
      doppler.applyAveragingSpec(*preset.dopplerAverage);
    }
    error = controller_->setImagingParams(params);
    acquisitionPanel_->imaging().load();
  }
  if (error.isEmpty()) {
    showMessage(tr("Preset %1 applied").arg(preset.name), false);
  } else {
    showMessage(tr("Preset %1: the display is set, the imaging parameters are not: %2")
                    .arg(preset.name, error),
                true);
  }
  return error;
}

}  // namespace cineflow::ui

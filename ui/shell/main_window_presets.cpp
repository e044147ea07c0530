// MainWindow's presets (presets.hpp): the toolbar's picker, which lists the presets that fit the
// open source's modality, and applying one: the display controls, then the open source's
// modality's section through its panels (modality/modality_ui.hpp; a refusal is shown, the rest
// stays applied).

#include <QComboBox>
#include <QLabel>
#include <QToolBar>

#include "acquisition/acquisition_panel.hpp"
#include "bridge/engine_controller.hpp"
#include "modality/modality_ui.hpp"
#include "pipeline/engine.hpp"
#include "shell/main_window.hpp"
#include "view2d/display_controls.hpp"

namespace cineflow::ui {

void MainWindow::createPresetPicker(QToolBar& toolBar) {
  presetBox_ = new QComboBox(this);
  presetBox_->setObjectName(QStringLiteral("presetBox"));
  // As wide as about 16 characters, whatever the names (the popup shows them whole): the toolbar
  // must hold it on a 1280 px screen.
  presetBox_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  presetBox_->setMinimumContentsLength(16);
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
  const acquire::FrameSource* source = controller_->engine().source();
  return source != nullptr ? QString::fromLatin1(source->modality().name()) : QString();
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
  QString error;
  const QString modality = sourceModality();
  if (modality.isEmpty() && !preset.sections.empty()) {
    error = tr("no source is open");
  }
  ModalityPanels* panels = acquisitionPanel_->panelsOf(modality);
  const PresetSection* section = preset.section(modality);
  if (panels != nullptr && section != nullptr) {
    error = panels->applyPreset(*section);
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

// MainWindow's presets (presets.hpp): the toolbar's picker, which lists the presets that fit the
// open source's modality, and applying one: the display controls, then the open source's
// modality's section through its panels (modality/modality_ui.hpp; a refusal is shown, the rest
// stays applied). Save as preset… (beside the picker, and in the Acquisition menu) saves the
// display and the open source's modality section in effect as one of the operator's presets
// (preset_files.hpp); Delete preset… removes one of them.

#include <QComboBox>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QStyle>
#include <QToolBar>
#include <QToolButton>

#include "acquisition/acquisition_panel.hpp"
#include "bridge/engine_controller.hpp"
#include "modality/modality_ui.hpp"
#include "pipeline/engine.hpp"
#include "shell/main_window.hpp"
#include "shell/preset_files.hpp"
#include "shell/save_preset_dialog.hpp"
#include "view2d/depth_gain_controls.hpp"
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

  savePresetAction_ =
      new QAction(style()->standardIcon(QStyle::SP_DialogSaveButton), tr("Save as preset…"), this);
  savePresetAction_->setObjectName(QStringLiteral("savePresetAction"));
  savePresetAction_->setToolTip(
      tr("Save the display and the imaging parameters in effect as a preset of your own"));
  connect(savePresetAction_, &QAction::triggered, this, &MainWindow::askSavePreset);
  deletePresetAction_ = new QAction(tr("Delete preset…"), this);
  deletePresetAction_->setObjectName(QStringLiteral("deletePresetAction"));
  deletePresetAction_->setToolTip(tr("Delete one of your own presets (not a shipped one)"));
  connect(deletePresetAction_, &QAction::triggered, this, &MainWindow::askDeletePreset);
  // An icon beside the picker, its arrow offering Delete: the toolbar must still fit 1280 px.
  auto* saveButton = new QToolButton(this);
  saveButton->setObjectName(QStringLiteral("savePresetButton"));
  saveButton->setDefaultAction(savePresetAction_);
  saveButton->setToolButtonStyle(Qt::ToolButtonIconOnly);
  saveButton->setPopupMode(QToolButton::MenuButtonPopup);
  auto* menu = new QMenu(saveButton);
  menu->addAction(savePresetAction_);
  menu->addAction(deletePresetAction_);
  saveButton->setMenu(menu);
  toolBar.addWidget(saveButton);
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
  deletePresetAction_->setEnabled(
      std::any_of(presets_.begin(), presets_.end(), [](const Preset& p) { return !p.shipped(); }));
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
  if (preset.depthGain) {
    depthGainControls_->setDepthGain(*preset.depthGain);
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

void MainWindow::selectPreset(const QString& name) {
  for (int i = 0; i < presetBox_->count(); ++i) {
    const int preset = presetBox_->itemData(i).toInt();
    if (preset >= 0 && presets_[static_cast<std::size_t>(preset)].name == name) {
      const QSignalBlocker blocker(presetBox_);
      presetBox_->setCurrentIndex(i);
      return;
    }
  }
}

void MainWindow::captureDisplay(Preset& preset) const {
  preset.gainDb = displayControls_->gainDb();
  preset.dynamicRangeDb = displayControls_->dynamicRangeDb();
  preset.colourMap = displayControls_->colourMap();
  preset.depthGain = depthGainControls_->depthGain();
}

Preset MainWindow::capturePreset(const QString& name) const {
  Preset preset;
  preset.name = name.trimmed();
  preset.modality = sourceModality();  // empty (any source) when none is open: the display only
  captureDisplay(preset);
  if (ModalityPanels* panels = acquisitionPanel_->panelsOf(preset.modality)) {
    preset.sections.emplace_back(preset.modality, panels->capturePreset());
  }
  return preset;
}

QString MainWindow::savePreset(const QString& name) {
  const SavedPreset saved = savePresetFile(capturePreset(name), presets_, presetFolder());
  if (!saved.error.isEmpty()) {
    const QString error = tr("Preset %1 not saved: %2").arg(name.trimmed(), saved.error);
    onError(error);  // nothing changed: the presets stay as they were
    return error;
  }
  reloadPresets();
  selectPreset(name.trimmed());
  showMessage(tr("Preset %1 saved in %2").arg(name.trimmed(), saved.path), false);
  return {};
}

QString MainWindow::deletePreset(const QString& name) {
  const Preset* own = ownPresetNamed(presets_, name);
  QString error = own != nullptr ? deletePresetFile(*own)
                                 : tr("you have no preset called \"%1\"").arg(name.trimmed());
  if (!error.isEmpty()) {
    error = tr("Preset %1 not deleted: %2").arg(name.trimmed(), error);
    onError(error);
    return error;
  }
  reloadPresets();
  showMessage(tr("Preset %1 deleted").arg(name.trimmed()), false);
  return {};
}

void MainWindow::askSavePreset() {
  const QString modality = sourceModality();
  QString holds =
      tr("For any source: the gain, dynamic range and colour map in effect now (no "
         "source is open, so no imaging parameters).");
  for (const ModalityPresets* presets : modalityPresets()) {
    if (presets->name() == modality) {
      holds = tr("For %1 sources: the gain, dynamic range and colour map, and the %1 imaging "
                 "parameters in effect now.")
                  .arg(presets->title());
    }
  }
  SavePresetDialog dialog(holds, presets_, this);
  if (dialog.exec() == QDialog::Accepted) {
    savePreset(dialog.name());
  }
}

void MainWindow::askDeletePreset() {
  QStringList own;
  for (const Preset& preset : presets_) {
    if (!preset.shipped()) {
      own << preset.name;
    }
  }
  if (own.isEmpty()) {
    showMessage(tr("You have no presets of your own to delete"), false);
    return;
  }
  const int shown = presetBox_->currentData().toInt();
  const int current =
      shown >= 0 ? static_cast<int>(own.indexOf(presets_[static_cast<std::size_t>(shown)].name))
                 : 0;
  bool ok = false;
  const QString name =
      QInputDialog::getItem(this, tr("Delete preset"), tr("Which of your presets?"), own,
                            std::max(current, 0), false, &ok);
  if (!ok || QMessageBox::question(this, tr("Delete preset"),
                                   tr("Delete your preset \"%1\"? Its file is removed.").arg(name),
                                   QMessageBox::Yes | QMessageBox::No,
                                   QMessageBox::No) != QMessageBox::Yes) {
    return;
  }
  deletePreset(name);
}

}  // namespace cineflow::ui

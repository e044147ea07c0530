#include "modalities/ultrasound/ultrasound_ui.hpp"

#include <QAction>
#include <QWidget>

#include "bridge/engine_controller.hpp"
#include "cineloop/cineloop_panel.hpp"
#include "common/app_settings.hpp"
#include "modalities/ultrasound/doppler_panel.hpp"
#include "modalities/ultrasound/imaging_panel.hpp"
#include "modalities/ultrasound/mat_import_dialog.hpp"
#include "modalities/ultrasound/ultrasound_presets.hpp"
#include "registry/source_factory.hpp"
#include "ultrasound/mat_import.hpp"
#include "view2d/image_view.hpp"

namespace cineflow::ui {
namespace {

class UltrasoundPanels : public ModalityPanels {
 public:
  UltrasoundPanels(EngineController& controller, QWidget& parent)
      : controller_(controller),
        imaging_(new ImagingPanel(controller, &parent)),
        doppler_(new DopplerPanel(controller, &parent)) {}

  std::vector<QWidget*> widgets() const override { return {imaging_, doppler_}; }

  QString applyPreset(const PresetSection& section) override {
    const auto& us = static_cast<const UltrasoundPresetSection&>(section);
    if (us.flowThresholdDb || us.flowPriority) {
      FlowLook look = doppler_->flowLook();
      look.powerThresholdDb = us.flowThresholdDb.value_or(look.powerThresholdDb);
      look.priority = us.flowPriority.value_or(look.priority);
      doppler_->setFlowLook(look);
    }
    if (!us.setsImaging()) {
      return {};
    }
    ultrasound::ImagingParams params = controller_.imagingParams();
    params.mode = us.mode.value_or(params.mode);
    params.fNumber = us.fNumber.value_or(params.fNumber);
    params.apodisation = us.apodisation.value_or(params.apodisation);
    params.grid = us.grid.value_or(params.grid);
    if (us.iqBandwidthPercent) {
      params.iqBandwidthRel = *us.iqBandwidthPercent / 100.0;
    }
    ultrasound::DopplerParams& doppler = params.doppler;
    doppler.ensemble = us.dopplerEnsemble.value_or(doppler.ensemble);
    doppler.ensembleMode = us.dopplerEnsembleMode.value_or(doppler.ensembleMode);
    if (us.wallFilter) {
      doppler.applyWallFilterSpec(*us.wallFilter);
    }
    if (us.dopplerAverage) {
      doppler.applyAveragingSpec(*us.dopplerAverage);
    }
    const QString error = controller_.setImagingParams(params);
    imaging_->load();
    return error;
  }

  std::shared_ptr<const PresetSection> capturePreset() const override {
    const FlowLook look = doppler_->flowLook();
    return std::make_shared<UltrasoundPresetSection>(UltrasoundPresetSection::captured(
        controller_.imagingParams(), look.powerThresholdDb, look.priority));
  }

  // How flow is shown (live, reviewed and exported alike), and the colour box drawn on the image.
  void connectViews(ImageView& view, CineloopPanel& cineloop) override {
    QObject::connect(doppler_, &DopplerPanel::flowLookChanged, &view, &ImageView::setFlowLook);
    QObject::connect(doppler_, &DopplerPanel::flowLookChanged, &cineloop,
                     &CineloopPanel::setFlowLook);
    view.setFlowLook(doppler_->flowLook());
    cineloop.setFlowLook(doppler_->flowLook());
    QObject::connect(&view, &ImageView::colourBoxChanged, doppler_, &DopplerPanel::setColourBox);
    EngineController& controller = controller_;
    QObject::connect(&controller, &EngineController::settingsChanged, &view, [&view, &controller] {
      view.setColourBox(controller.imagingParams().doppler.box);
    });
  }

 private:
  EngineController& controller_;
  ImagingPanel* imaging_;  // owned by the dock's panel
  DopplerPanel* doppler_;
};

}  // namespace

QString UltrasoundUi::name() const {
  return UltrasoundPresets().name();
}

std::vector<SourceButton> UltrasoundUi::sourceButtons() const {
  return {{QStringLiteral("simulatorButton"), QObject::tr("Simulator"),
           QObject::tr("Acquire from the built-in ultrasound phantom simulator"),
           QStringLiteral("sim")},
          {QStringLiteral("flowSimulatorButton"), QObject::tr("Flow simulator"),
           QObject::tr("Acquire from the built-in flow simulator (a vessel and a rotating disk "
                       "with known velocities) for colour Doppler"),
           QStringLiteral("sim-flow")}};
}

std::unique_ptr<ModalityPanels> UltrasoundUi::createPanels(EngineController& controller,
                                                           QWidget& parent) const {
  return std::make_unique<UltrasoundPanels>(controller, parent);
}

QList<QAction*> UltrasoundUi::createImportActions(EngineController& controller,
                                                  QWidget& parent) const {
  auto* action = new QAction(QObject::tr("Import &MATLAB recording…"), &parent);
  action->setObjectName(QStringLiteral("importMatAction"));
  QObject::connect(action, &QAction::triggered, &parent, [&controller, &parent] {
    importMatlabRecording(controller, QString(), &parent);
  });
  return {action};
}

bool UltrasoundUi::takeOpenRequest(const QString& spec, EngineController& controller,
                                   QWidget* parent) const {
  if (!acquire::hasMatExtension(spec.toStdString())) {
    return false;
  }
  importMatlabRecording(controller, spec, parent);  // a MATLAB file needs its mapping
  return true;
}

bool importMatlabRecording(EngineController& controller, const QString& path, QWidget* parent) {
  const auto settings = openAppSettings();
  ultrasound::MatMapping last = ultrasound::MatMapping::verasonics();
  try {
    last = ultrasound::MatMapping::parse(
        settings->value(settings_keys::kMatMapping).toString().toStdString());
  } catch (const std::invalid_argument&) {
    // A damaged setting: start from the preset.
  }
  MatImportDialog dialog(
      last, path.isEmpty() ? settings->value(settings_keys::kMatPath).toString() : path, parent);
  if (dialog.exec() != QDialog::Accepted) {
    return false;
  }
  const ultrasound::MatMapping mapping = dialog.mapping();
  settings->setValue(settings_keys::kMatMapping, QString::fromStdString(mapping.toString()));
  settings->setValue(settings_keys::kMatPath, dialog.path());
  controller.open(dialog.path(), true, mapping);
  return true;
}

}  // namespace cineflow::ui

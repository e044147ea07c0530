#include "modalities/oct/oct_ui.hpp"

#include <QWidget>

#include "bridge/engine_controller.hpp"
#include "modalities/oct/oct_panel.hpp"
#include "modalities/oct/oct_presets.hpp"
#include "oct/oct_modality.hpp"
#include "registry/oct_engine.hpp"

namespace cineflow::ui {
namespace {

class OctPanels : public ModalityPanels {
 public:
  OctPanels(EngineController& controller, QWidget& parent)
      : controller_(controller), panel_(new OctPanel(controller, &parent)) {}

  std::vector<QWidget*> widgets() const override { return {panel_}; }

  QString applyPreset(const PresetSection& section) override {
    const auto& preset = static_cast<const OctPresetSection&>(section);
    oct::OctParams params = oct::paramsOf(controller_.engine());
    params.window = preset.window.value_or(params.window);
    params.refractiveIndex = preset.refractiveIndex.value_or(params.refractiveIndex);
    const QString error = controller_.setSettings(oct::makeSettings(std::move(params)));
    panel_->load();
    return error;
  }

  std::shared_ptr<const PresetSection> capturePreset() const override {
    return std::make_shared<OctPresetSection>(
        OctPresetSection::captured(oct::paramsOf(controller_.engine())));
  }

 private:
  EngineController& controller_;
  OctPanel* panel_;  // owned by the dock's panel
};

}  // namespace

QString OctUi::name() const {
  return OctPresets().name();
}

std::vector<SourceButton> OctUi::sourceButtons() const {
  return {{QStringLiteral("octSimulatorButton"), QObject::tr("OCT simulator"),
           QObject::tr("Acquire OCT B-scans and volumes from the built-in OCT simulator (a "
                       "layered sample)"),
           QStringLiteral("oct-sim")}};
}

std::unique_ptr<ModalityPanels> OctUi::createPanels(EngineController& controller,
                                                    QWidget& parent) const {
  return std::make_unique<OctPanels>(controller, parent);
}

}  // namespace cineflow::ui

#include "modalities/oct/oct_ui.hpp"

#include <QWidget>

#include "bridge/engine_controller.hpp"
#include "modalities/oct/oct_panel.hpp"
#include "modality/preset_fields.hpp"
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

 private:
  EngineController& controller_;
  OctPanel* panel_;  // owned by the dock's panel
};

}  // namespace

QString OctUi::name() const {
  return QStringLiteral("oct");
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

std::shared_ptr<const PresetSection> OctUi::parsePreset(PresetFields* section,
                                                        PresetFields* display) const {
  (void)display;  // OCT keeps no keys of its own there
  if (section == nullptr) {
    return nullptr;
  }
  auto parsed = std::make_shared<OctPresetSection>();
  parsed->window = section->parsed(QStringLiteral("window"), oct::parseSpectralWindow);
  parsed->refractiveIndex = section->number(QStringLiteral("refractive_index"), 1.0, 4.0);
  if (!parsed->window && !parsed->refractiveIndex) {
    return nullptr;
  }
  return parsed;
}

}  // namespace cineflow::ui

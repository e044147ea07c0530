#pragma once
// The presets' side of the GUI's modality seam (modality/modality_ui.hpp has the widgets' side):
// each modality reads its section of a preset file, and its keys of "display", and writes them back
// for a preset the operator saves. Qt Core only, so that the preset reader builds without the GUI
// (the preset fuzz harness).

#include <memory>
#include <vector>

#include <QJsonObject>
#include <QString>

namespace cineflow::ui {

class PresetFields;

// One modality's section of a preset, parsed and checked (its panels apply it:
// ModalityPanels::applyPreset), or captured from what the open source images with now
// (ModalityPanels::capturePreset).
class PresetSection {
 public:
  virtual ~PresetSection() = default;
};

class ModalityPresets {
 public:
  virtual ~ModalityPresets() = default;
  // The engine modality's name (modality::Modality::name()): a preset's "modality", and the name
  // of its section in a preset file.
  virtual QString name() const = 0;
  // How the operator reads the name ("Ultrasound", "OCT").
  virtual QString title() const = 0;
  // A preset file's section of this modality (null when the file has none) and its "display"
  // object (null when it has none), whose keys of this modality's it takes (the others are the
  // neutral display's). Throws PresetError naming the field. Returns null when the preset sets
  // nothing of this modality.
  virtual std::shared_ptr<const PresetSection> parse(PresetFields* section,
                                                     PresetFields* display) const = 0;
  // The inverse of parse(): `section` (this modality's) as its section of a preset file, with its
  // keys of "display" added to `display`. What is written parses back to the same values.
  virtual QJsonObject write(const PresetSection& section, QJsonObject& display) const = 0;
};

// Every modality's preset reader, in the dock's order (defined in ui/modalities/).
const std::vector<const ModalityPresets*>& modalityPresets();

}  // namespace cineflow::ui

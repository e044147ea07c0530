#pragma once
// The presets' side of the GUI's modality seam (modality/modality_ui.hpp has the widgets' side):
// each modality reads its section of a preset file, and its keys of "display". Qt Core only, so
// that the preset reader builds without the GUI (the preset fuzz harness).

#include <memory>
#include <vector>

#include <QString>

namespace cineflow::ui {

class PresetFields;

// One modality's section of a preset, parsed and checked (its panels apply it:
// ModalityPanels::applyPreset).
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
  // A preset file's section of this modality (null when the file has none) and its "display"
  // object (null when it has none), whose keys of this modality's it takes (the others are the
  // neutral display's). Throws PresetError naming the field. Returns null when the preset sets
  // nothing of this modality.
  virtual std::shared_ptr<const PresetSection> parse(PresetFields* section,
                                                     PresetFields* display) const = 0;
};

// Every modality's preset reader, in the dock's order (defined in ui/modalities/).
const std::vector<const ModalityPresets*>& modalityPresets();

}  // namespace cineflow::ui

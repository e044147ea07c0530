#pragma once
// The GUI's modality seam: what one modality (ultrasound, OCT) offers the neutral GUI. The shell,
// the acquisition panel and the presets name no modality; they ask the ModalityUi objects of
// modalityUis() (ui/registry/, the one place that lists them) for
//   - the source buttons of its simulators,
//   - its parameter panels in the acquisition dock (ModalityPanels, one set per dock), which show
//     themselves while one of its sources is open, apply a preset's section, capture the section
//     in effect (Save as preset…) and connect to the views what they set (Doppler's flow look and
//     colour box),
//   - its entries of the File menu (a MATLAB import),
//   - its section of a preset file (modality/modality_presets.hpp: parsed and checked when the
//     preset loads, with Qt Core alone),
//   - an open request it answers with a dialog of its own (a MATLAB file's mapping).

#include <memory>
#include <vector>

#include <QList>
#include <QString>

#include "modality/modality_presets.hpp"

class QAction;
class QWidget;

namespace cineflow::ui {

class CineloopPanel;
class EngineController;
class ImageView;
// A modality's panels in one acquisition dock.
class ModalityPanels {
 public:
  virtual ~ModalityPanels() = default;
  // In the dock's order, children of the dock's panel; each shows itself for its modality's
  // sources.
  virtual std::vector<QWidget*> widgets() const = 0;
  // `section` (parsed by this modality's ModalityPresets) applied to the open source and shown in
  // the panels. Returns the engine's refusal, or "" (also when the section sets nothing).
  virtual QString applyPreset(const PresetSection& section) = 0;
  // What the open source (one of this modality's) is imaged with now, and shown with of this
  // modality's keys of "display", as the section applyPreset() would take to set it again.
  virtual std::shared_ptr<const PresetSection> capturePreset() const = 0;
  // Connects what the panels set to the live view and the cineloop (none by default).
  virtual void connectViews(ImageView& view, CineloopPanel& cineloop) {
    (void)view;
    (void)cineloop;
  }
};

// A button in the acquisition dock's source group that opens one of the modality's sources.
struct SourceButton {
  QString objectName;  // for tests and scripts, e.g. "octSimulatorButton"
  QString label, toolTip;
  QString spec;  // what it opens ("sim", "oct-sim", ...)
};

class ModalityUi {
 public:
  virtual ~ModalityUi() = default;
  // The engine modality's name (modality::Modality::name(), ModalityPresets::name()).
  virtual QString name() const = 0;
  virtual std::vector<SourceButton> sourceButtons() const = 0;
  virtual std::unique_ptr<ModalityPanels> createPanels(EngineController& controller,
                                                       QWidget& parent) const = 0;
  // Its entries of the File menu beyond its source buttons (ultrasound: Import MATLAB
  // recording…), owned by `parent`; none by default.
  virtual QList<QAction*> createImportActions(EngineController& controller, QWidget& parent) const {
    (void)controller;
    (void)parent;
    return {};
  }
  // Answers an open request with a dialog of its own and opens the source through `controller`
  // (or not, when the operator cancels). Returns false for a request it leaves to the caller.
  virtual bool takeOpenRequest(const QString& spec, EngineController& controller,
                               QWidget* parent) const {
    (void)spec;
    (void)controller;
    (void)parent;
    return false;
  }
};

// Every modality's GUI, in the dock's order (defined in ui/registry/).
const std::vector<const ModalityUi*>& modalityUis();

}  // namespace cineflow::ui

#pragma once
// The Doppler controls in the acquisition dock, shown while the imaging mode is colour or power
// Doppler (issue 20). Processing (applied live through EngineController::setImagingParams; a
// refusal is shown with the engine's reason and the controls go back to what is in effect): the
// ensemble (packet size, sliding or block), the wall filter and its parameter (regression order,
// IIR cut-off x PRF, SVD rank), the averaging window, the colour box (drawn on the image; "Whole
// image" clears it). Display (instant, no engine round trip): the power threshold over the
// B-mode's black level, the B-mode priority and the power map's range, carried by flowLookChanged.
// The PRF in effect and the aliasing velocity c PRF / (4 f0) are stated.

#include <QGroupBox>

#include "common/image.hpp"  // ColourBox as a Qt meta-type
#include "ultrasound/imaging_params.hpp"
#include "view2d/flow_display.hpp"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;

namespace cineflow::ui {

class EngineController;

class DopplerPanel : public QGroupBox {
  Q_OBJECT

 public:
  explicit DopplerPanel(EngineController& controller, QWidget* parent = nullptr);

  // How flow is shown now (the map follows the imaging mode).
  FlowLook flowLook() const;
  // The controls, for tests.
  QSpinBox& ensembleBox() { return *ensemble_; }
  QComboBox& ensembleModeBox() { return *ensembleMode_; }
  QComboBox& wallFilterBox() { return *wallFilter_; }
  QDoubleSpinBox& wallParameterBox() { return *wallParameter_; }
  QSlider& thresholdSlider() { return *threshold_; }
  QSlider& prioritySlider() { return *priority_; }
  QString prfText() const;
  QString errorText() const;

 public slots:
  // Refills the controls from the parameters in effect and shows or hides the panel by mode.
  void load();
  // The colour box the operator drew (metres); an empty box is the whole image.
  void setColourBox(const cineflow::process::ColourBox& box);
  // Display settings from a preset.
  void setFlowLook(const cineflow::ui::FlowLook& look);

 signals:
  void flowLookChanged(const cineflow::ui::FlowLook& look);

 private:
  template <class Change>
  void applyChange(Change change);
  void updateWallParameter(ultrasound::WallFilter filter, const ultrasound::DopplerParams& params);
  void emitLook();

  EngineController& controller_;
  QLabel* prf_ = nullptr;
  QSpinBox* ensemble_ = nullptr;
  QComboBox* ensembleMode_ = nullptr;
  QComboBox* wallFilter_ = nullptr;
  QLabel* wallParameterLabel_ = nullptr;
  QDoubleSpinBox* wallParameter_ = nullptr;
  QSpinBox* averageX_ = nullptr;
  QSpinBox* averageZ_ = nullptr;
  QLabel* box_ = nullptr;
  QPushButton* wholeImage_ = nullptr;
  QSlider* threshold_ = nullptr;
  QLabel* thresholdValue_ = nullptr;
  QSlider* priority_ = nullptr;
  QLabel* priorityValue_ = nullptr;
  QLabel* error_ = nullptr;
  FlowMap map_ = FlowMap::Off;
  double powerRangeDb_ = FlowLook{}.powerRangeDb;
  bool loading_ = false;
};

}  // namespace cineflow::ui

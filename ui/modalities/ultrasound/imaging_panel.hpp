#pragma once
// The imaging parameters in the acquisition dock: the signal chain (RF or I/Q, and in I/Q mode
// the low-pass bandwidth and the decimation), the receive aperture (f-number, apodisation) and
// the reconstruction grid (depth and lateral ranges, pixel steps). The chain and the aperture
// apply live as they change; the grid applies with its button or Return in a grid box. Every change
// goes through EngineController::setImagingParams: a refusal is shown in the panel with the
// engine's reason, never thrown, and the previous parameters stay in effect. The live controls
// always show the parameters in effect (a refused value goes back). A grid box edited and not yet
// applied reads in amber, in red once the grid was refused; the refusal's reason shows until the
// boxes hold a grid in effect again: applied, or put back by Revert (Escape in a box), or typed
// back by hand. Applying the grid takes only the boxes the operator changed (the others keep the
// exact values in effect, which the boxes show rounded). A grid reaching well past the recording's
// last sample is said under the mode (ImagingParams::gridPastDataNotice). Disabled until a source
// is open (the defaults and limits depend on the acquisition).

#include <array>

#include <QGroupBox>
#include <QString>

#include "ultrasound/imaging_params.hpp"

class QComboBox;
class QDoubleSpinBox;
class QKeyEvent;
class QLabel;
class QPushButton;
class QSpinBox;

namespace cineflow::ui {

class EngineController;

class ImagingPanel : public QGroupBox {
  Q_OBJECT

 public:
  explicit ImagingPanel(EngineController& controller, QWidget* parent = nullptr);

  // The controls, for tests.
  QComboBox& modeBox() { return *mode_; }
  // Why the mode was chosen for the operator ("The RF is sampled at ... : imaging in I/Q
  // mode."), or empty.
  QString modeNote() const;
  QDoubleSpinBox& fNumberBox() { return *fNumber_; }
  QComboBox& apodisationBox() { return *apodisation_; }
  // Percent of f0; 0 is the acquisition's own bandwidth (or the default). Enabled in I/Q mode.
  QDoubleSpinBox& iqBandwidthBox() { return *iqBandwidth_; }
  QSpinBox& iqDecimationBox() { return *iqDecimation_; }
  QDoubleSpinBox& depthStartBox() { return *depthStart_; }
  QDoubleSpinBox& depthEndBox() { return *depthEnd_; }
  QDoubleSpinBox& depthStepBox() { return *depthStep_; }
  QDoubleSpinBox& lateralStartBox() { return *lateralStart_; }
  QDoubleSpinBox& lateralEndBox() { return *lateralEnd_; }
  QDoubleSpinBox& lateralStepBox() { return *lateralStep_; }
  QPushButton& applyGridButton() { return *applyGrid_; }
  QPushButton& revertGridButton() { return *revertGrid_; }
  // Whether a grid box holds a value other than the grid in effect.
  bool gridEdited() const;
  // Empty while the parameters shown are in effect; otherwise why they are not.
  QString imagingError() const;
  // Fills every control from the engine's parameters and the acquisition, without applying them
  // back; clears any error (after a preset changed them).
  void load();

 protected:
  // Return in a grid box applies the grid (the boxes pass Return on to their parent).
  void keyPressEvent(QKeyEvent* event) override;

 private:
  void onSourceOpened();
  // The boxes that show numbers (blank before the first source).
  std::array<QDoubleSpinBox*, 8> numberBoxes() const;
  std::array<QDoubleSpinBox*, 6> gridBoxes() const;  // depth from/to/step, lateral from/to/step
  std::array<double, 6> gridInEffect() const;        // the same, in metres
  std::array<bool, 6> editedBoxes() const;  // which of gridBoxes() differ from gridInEffect()
  // Colours the boxes not in effect, enables Revert, and clears a refusal once none is left.
  void updateGridState();
  void revertGrid();
  void loadLiveControls();
  // The note under the mode: bandpass sampling (RF mode impossible), a depth step too coarse
  // for RF mode (ultrasound::ImagingParams::coarseRfGridNotice).
  void updateModeNote();  // mode, I/Q, f-number and apodisation from the parameters in effect
  void loadGrid();
  // Applies `change` to the parameters in effect, reports the engine's answer and shows in the
  // live controls what is in effect.
  template <class Change>
  void applyChange(Change change);
  void applyGrid();
  void showImagingResult(const QString& error);
  // The I/Q controls act only in I/Q mode.
  void updateIqControls(ultrasound::ImagingMode mode);

  EngineController& controller_;
  QComboBox* mode_ = nullptr;
  QLabel* modeNote_ = nullptr;
  QDoubleSpinBox* fNumber_ = nullptr;
  QComboBox* apodisation_ = nullptr;
  QDoubleSpinBox* iqBandwidth_ = nullptr;
  QSpinBox* iqDecimation_ = nullptr;
  QDoubleSpinBox* depthStart_ = nullptr;
  QDoubleSpinBox* depthEnd_ = nullptr;
  QDoubleSpinBox* depthStep_ = nullptr;
  QDoubleSpinBox* lateralStart_ = nullptr;
  QDoubleSpinBox* lateralEnd_ = nullptr;
  QDoubleSpinBox* lateralStep_ = nullptr;
  QPushButton* applyGrid_ = nullptr;
  QPushButton* revertGrid_ = nullptr;
  QLabel* imagingError_ = nullptr;
  QString gridError_;     // why the grid in the boxes was refused; empty when it is in effect
  bool loading_ = false;  // filling the controls from the engine: do not apply them back
};

}  // namespace cineflow::ui

#pragma once
// The imaging parameters in the acquisition dock: the signal chain (RF or I/Q, and in I/Q mode
// the low-pass bandwidth and the decimation), the receive aperture (f-number, apodisation) and
// the reconstruction grid (depth and lateral ranges, pixel steps). The chain and the aperture
// apply live as they change; the grid applies with its button. Every change goes through
// EngineController::setImagingParams: a refusal is shown in the panel with the engine's reason,
// never thrown, and the previous parameters stay in effect. Disabled until a source is open (the
// defaults and limits depend on the acquisition).

#include <QGroupBox>

#include "process/imaging_params.hpp"

class QComboBox;
class QDoubleSpinBox;
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
  // Empty while the parameters shown are in effect; otherwise why they are not.
  QString imagingError() const;

 private:
  void onSourceOpened();
  // Fills the controls from the engine's parameters without applying them back.
  void load();
  // Applies `change` to the parameters in effect and reports the engine's answer.
  template <class Change>
  void applyChange(Change change);
  void applyGrid();
  void showImagingResult(const QString& error);
  // The I/Q controls act only in I/Q mode.
  void updateIqControls(process::ImagingMode mode);

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
  QLabel* imagingError_ = nullptr;
  bool loading_ = false;  // filling the controls from the engine: do not apply them back
};

}  // namespace cineflow::ui

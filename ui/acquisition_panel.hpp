#pragma once
// The operator's acquisition controls (a dock on the left of the main window): the source, start /
// stop / freeze, the pacing frame rate, the overflow policy with a dropped-frame alert, and the
// imaging parameters (f-number, depth range, lateral extent). Every change goes through the
// EngineController; parameters the engine refuses are reported in the panel, never thrown.

#include <cstdint>

#include <QElapsedTimer>
#include <QWidget>

#include "pipeline/engine_types.hpp"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;

namespace cineflow::ui {

class EngineController;

class AcquisitionPanel : public QWidget {
  Q_OBJECT

 public:
  explicit AcquisitionPanel(EngineController& controller, QWidget* parent = nullptr);

  // The controls, for the main window's settings and for tests.
  QDoubleSpinBox& frameRateBox() { return *frameRate_; }
  QComboBox& overflowBox() { return *overflow_; }
  QComboBox& modeBox() { return *mode_; }
  // Why the mode was chosen for the operator ("sampled at ... : imaging in I/Q mode"), or empty.
  QString modeNote() const;
  QDoubleSpinBox& fNumberBox() { return *fNumber_; }
  QDoubleSpinBox& depthStartBox() { return *depthStart_; }
  QDoubleSpinBox& depthEndBox() { return *depthEnd_; }
  QDoubleSpinBox& lateralStartBox() { return *lateralStart_; }
  QDoubleSpinBox& lateralEndBox() { return *lateralEnd_; }
  QPushButton& applyGridButton() { return *applyGrid_; }
  // Empty while the imaging parameters in the panel are in effect; otherwise why they are not.
  QString imagingError() const;
  // Visible while frames are being dropped (Drop policy with the engine falling behind).
  const QLabel& droppedAlert() const { return *droppedAlert_; }

  // Selects the overflow policy (and applies it).
  void setOverflowPolicy(pipeline::OverflowPolicy policy);
  // Asks for an RF recording with a file dialog; emits openRequested() unless cancelled.
  void chooseRecording();

 signals:
  // The operator asked for a source: "sim" or an RF recording's path.
  void openRequested(const QString& spec);
  // The operator asked to stop acquiring and review the cineloop.
  void freezeRequested();

 private:
  QWidget* createSourceGroup();
  QWidget* createAcquisitionGroup();
  QWidget* createImagingGroup();
  void onSourceOpened(const QString& description);
  void onRunningChanged(bool running);
  void onStatsUpdated(const pipeline::EngineStats& stats);
  void loadImagingParams();
  void applyMode(int index);
  void applyFNumber(double fNumber);
  void applyGrid();
  void showImagingResult(const QString& error);

  EngineController& controller_;
  QLabel* sourceLabel_ = nullptr;
  QPushButton* start_ = nullptr;
  QPushButton* stop_ = nullptr;
  QPushButton* freeze_ = nullptr;
  QDoubleSpinBox* frameRate_ = nullptr;
  QComboBox* overflow_ = nullptr;
  QLabel* droppedCount_ = nullptr;
  QLabel* droppedAlert_ = nullptr;
  QWidget* imagingGroup_ = nullptr;
  QComboBox* mode_ = nullptr;
  QLabel* modeNote_ = nullptr;
  QDoubleSpinBox* fNumber_ = nullptr;
  QDoubleSpinBox* depthStart_ = nullptr;
  QDoubleSpinBox* depthEnd_ = nullptr;
  QDoubleSpinBox* lateralStart_ = nullptr;
  QDoubleSpinBox* lateralEnd_ = nullptr;
  QPushButton* applyGrid_ = nullptr;
  QLabel* imagingError_ = nullptr;
  bool loading_ = false;  // filling the controls from the engine: do not apply them back
  std::uint64_t droppedSeen_ = 0;
  QElapsedTimer lastDrop_;  // since the last newly dropped frame
};

}  // namespace cineflow::ui

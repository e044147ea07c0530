#pragma once
// The operator's acquisition controls (a dock on the left of the main window): the source (each
// modality's simulators, a recording, a lab source), start / stop / freeze, the pacing frame
// rate, the overflow policy with a dropped-frame alert, and each modality's parameter panels
// (modality/modality_ui.hpp; only the open source's show). Every change goes through the
// EngineController; what the engine refuses is reported in the panel, never thrown.

#include <cstdint>
#include <memory>
#include <vector>

#include <QElapsedTimer>
#include <QWidget>

#include "modality/modality_ui.hpp"
#include "pipeline/engine_types.hpp"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;

namespace cineflow::ui {

class EngineController;

class IgtlPanel;

class AcquisitionPanel : public QWidget {
  Q_OBJECT

 public:
  explicit AcquisitionPanel(EngineController& controller, QWidget* parent = nullptr);

  // The controls, for the main window's settings and for tests.
  QDoubleSpinBox& frameRateBox() { return *frameRate_; }
  QComboBox& overflowBox() { return *overflow_; }
  QComboBox& damagedBox() { return *damaged_; }
  const QLabel& damagedCount() const { return *damagedCount_; }
  // The panels of the modality named `modality` (ModalityUi::name()), or null.
  ModalityPanels* panelsOf(const QString& modality) const;
  // A modality's panel by its type, for tests (e.g. modalityPanel<ImagingPanel>()).
  template <class Panel>
  Panel& modalityPanel() const {
    Panel* panel = findChild<Panel*>();
    Q_ASSERT(panel != nullptr);
    return *panel;
  }
  // The widest minimum width of the modalities' panels (the dock fits any, so that opening
  // another modality's source never clips it).
  int modalityPanelsWidth() const;
  // Connects what the modalities' panels set to the live view and the cineloop.
  void connectViews(ImageView& view, CineloopPanel& cineloop);
  // Visible while frames are being dropped (Drop policy with the engine falling behind).
  const QLabel& droppedAlert() const { return *droppedAlert_; }

  // Selects the overflow policy (and applies it).
  void setOverflowPolicy(pipeline::OverflowPolicy policy);
  // "Auto": the policy follows the source (EngineController::setAutoOverflowPolicy).
  void setAutoOverflowPolicy();
  // Asks for an RF recording with a file dialog; emits openRequested() unless cancelled.
  void chooseRecording();
  // Asks for a lab source (a source plugin with its parameters, or a network stream) with the
  // SourceDialog; emits openRequested() unless cancelled.
  void chooseLabSource();
  // A live source's state when it is not delivering ("waiting for frames on ..."), shown under
  // the source's name; hidden while frames arrive.
  const QLabel& liveStatus() const { return *liveStatus_; }
  // The OpenIGTLink server's group (igtl_panel.hpp).
  IgtlPanel& igtlPanel() { return *igtl_; }

 signals:
  // The operator asked for a source: "sim", an RF recording's path, "plugin:...", "zmq:...".
  void openRequested(const QString& spec);
  // The operator asked to stop acquiring and review the cineloop.
  void freezeRequested();

 private:
  QWidget* createSourceGroup();
  QWidget* createAcquisitionGroup();
  void onSourceOpened(const QString& description);
  void onRunningChanged(bool running);
  void onStatsUpdated(const pipeline::EngineStats& stats);
  static QString droppedAlertText(std::uint64_t dropped, std::uint64_t lost);

  EngineController& controller_;
  QLabel* sourceLabel_ = nullptr;
  QLabel* liveStatus_ = nullptr;
  QPushButton* start_ = nullptr;
  QPushButton* stop_ = nullptr;
  QPushButton* freeze_ = nullptr;
  QDoubleSpinBox* frameRate_ = nullptr;
  QComboBox* overflow_ = nullptr;
  QLabel* notImagedCount_ = nullptr;
  static constexpr int kAutoPolicy = -1;  // the overflow box's item data for "Auto"
  QLabel* droppedCount_ = nullptr;
  QComboBox* damaged_ = nullptr;    // a replay's damaged frame: stop or skip
  QLabel* damagedCount_ = nullptr;  // frames skipped as damaged; the last reason as tooltip
  QLabel* droppedAlert_ = nullptr;
  IgtlPanel* igtl_ = nullptr;
  struct ModalityEntry {
    const ModalityUi* modality;
    std::unique_ptr<ModalityPanels> panels;  // its widgets are this panel's children
  };
  std::vector<ModalityEntry> modalityPanels_;
  std::uint64_t droppedSeen_ = 0;
  QElapsedTimer lastDrop_;  // since the last newly dropped frame
};

}  // namespace cineflow::ui

#pragma once
// The operator's main window: the live B-mode image in the centre, acquisition and display
// controls in a toolbar, and the engine's health (backend, rates, drops, sequence) in the status
// bar. It owns the EngineController; nothing else in the GUI talks to the engine.

#include <cstdint>
#include <memory>

#include <QElapsedTimer>
#include <QMainWindow>
#include <QString>

#include "compute/backend.hpp"
#include "frame.hpp"
#include "pipeline/engine_types.hpp"

class QAction;
class QLabel;

namespace cineflow::ui {

class BmodeView;
class DisplayControls;
class EngineController;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  // Creates the backend; throws (with the reason) when the requested backend is unavailable.
  explicit MainWindow(compute::BackendRequest backend, QWidget* parent = nullptr);
  ~MainWindow() override;  // stops acquisition before any widget goes away

  // Opens "sim" or an RF recording in the background and, if `autoStart`, acquires once open.
  void openSource(const QString& spec, bool autoStart = true);
  // Errors always go to the status bar; with interactive errors (the default) also to a
  // non-modal message box. Screenshot runs and tests turn the boxes off.
  void setInteractiveErrors(bool enabled) { interactiveErrors_ = enabled; }
  // The most recent error shown; empty if none.
  const QString& lastError() const { return lastError_; }

  EngineController& controller() { return *controller_; }
  BmodeView& view() { return *view_; }
  DisplayControls& displayControls() { return *displayControls_; }

 signals:
  void errorShown(const QString& message);

 private:
  void createToolBar();
  void createStatusBar();
  void onFrameReady(const std::shared_ptr<const Frame>& frame);
  void onStatsUpdated(const pipeline::EngineStats& stats);
  void onRunningChanged(bool running);
  void onOpenProgress(double fraction, const QString& what);
  void onError(const QString& message);
  void showMessage(const QString& text, bool isError);

  std::unique_ptr<EngineController> controller_;
  BmodeView* view_ = nullptr;
  DisplayControls* displayControls_ = nullptr;
  QAction* runAction_ = nullptr;
  QLabel* messageLabel_ = nullptr;
  QLabel* backendLabel_ = nullptr;
  QLabel* statsLabel_ = nullptr;

  bool interactiveErrors_ = true;
  bool autoGainPending_ = true;  // set the gain from the first frame of each opened source
  QString lastError_;
  // Display rate: frames painted per second, measured over about a second.
  QElapsedTimer displayClock_;
  std::uint64_t displayedAtLastStats_ = 0;
  double displayFps_ = 0.0;
};

}  // namespace cineflow::ui

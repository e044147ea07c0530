#pragma once
// The permanent part of the main window's status bar: backend and device, acquisition /
// processing / display rates, dropped frames, a camera's stream counters, the host ring's occupancy
// with the end-to-end latency (an alert when the pipeline is behind: in Block mode a filling ring
// holds the source back and the image lags, without drops to show it) and the compute device's
// memory. Rates and drops follow the controller's statistics; memory is polled about once a second
// (a cheap query). When CUDA was asked for (auto) but is unavailable, the backend field says so and
// why ("CPU backend: CUDA unavailable: no NVIDIA driver ..."), elided, with the whole reason in its
// tooltip.

#include <cstdint>

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include "pipeline/engine_types.hpp"

class QLabel;
class QStatusBar;

namespace cineflow::ui {

class ImageView;
class EngineController;

class StatusIndicators : public QObject {
  Q_OBJECT

 public:
  // Adds its labels to `statusBar`; the controller and the view must outlive it.
  StatusIndicators(QStatusBar& statusBar, EngineController& controller, const ImageView& view);

  // The texts shown, for tests.
  QString backendText() const;
  QString backendToolTip() const;
  QString ratesText() const;
  QString droppedText() const;
  QString sourceCountersText() const;  // a camera's stream counters; "" for other sources
  QString latencyText() const;  // "ring 1/8 · latency 120 ms", "⚠ behind: ring 8/8 · ..."
  bool behindAlertShown() const { return behind_; }
  QString memoryText() const;
  // The numbers behind the texts (the profiler overlay shows them too).
  double displayFps() const { return displayFps_; }
  double memoryUsedGiB() const { return memoryUsedGiB_; }
  double memoryTotalGiB() const { return memoryTotalGiB_; }  // 0: not known

 private:
  void onStatsUpdated(const pipeline::EngineStats& stats);
  void onRunningChanged(bool running);
  void showLatency(const pipeline::EngineStats& stats);
  void showSourceCounters(const pipeline::EngineStats& stats);
  void refreshMemory();
  void showBackend(const QString& displayPath, bool deviceUpload);

  EngineController& controller_;
  const ImageView& view_;
  QLabel* backendLabel_ = nullptr;
  QLabel* ratesLabel_ = nullptr;
  QLabel* droppedLabel_ = nullptr;
  QLabel* sourceLabel_ = nullptr;  // a live source's transport counters, hidden without
  QLabel* latencyLabel_ = nullptr;
  bool behind_ = false;
  QLabel* memoryLabel_ = nullptr;
  QTimer memoryTimer_;
  // Display rate: frames painted per second, measured over about a second.
  // The display rate: counted from the first frame painted after the start, over windows of a
  // second; until the first window closes, over the frames painted so far (lastFrameMs_: when the
  // newest was painted, on displayClock_).
  void onFrameDisplayed();
  QElapsedTimer displayClock_;
  std::uint64_t displayedAtClockStart_ = 0;
  qint64 lastFrameMs_ = 0;
  bool displayWindowClosed_ = false;
  double displayFps_ = 0.0;
  double memoryUsedGiB_ = 0.0;
  double memoryTotalGiB_ = 0.0;
};

}  // namespace cineflow::ui

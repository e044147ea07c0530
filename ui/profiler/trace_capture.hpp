#pragma once
// TraceCapture: View > Record trace… records the running engine for N seconds
// (profile/trace_recorder.hpp) and writes the Chrome trace JSON (Perfetto) on a worker thread, so
// that the GUI never waits for the file; the outcome arrives as a message and finished(). Besides
// the engine's tracks, the probes given (the display copy, save I/O) add theirs.

#include <QObject>
#include <QString>
#include <QTimer>
#include <memory>
#include <vector>

#include "common/background_job.hpp"
#include "profile/stage_probe.hpp"
#include "profile/trace_recorder.hpp"

namespace cineflow::ui {

class EngineController;

class TraceCapture : public QObject {
  Q_OBJECT

 public:
  // The controller and the probes must outlive the capture.
  TraceCapture(EngineController& controller, std::vector<profile::StageProbe*> probes,
               QObject* parent = nullptr);
  ~TraceCapture() override;  // stops recording; waits for a write in progress

  // Recording or writing.
  bool busy() const { return recorder_ != nullptr || writer_.running(); }
  // Starts recording for `seconds` (1..600), then writes `path`. False, with a message, while
  // busy or for a bad duration.
  bool start(int seconds, const QString& path);

 signals:
  void messageReady(const QString& message, bool isError);
  void finished(const QString& path, bool ok);

 private:
  void stopAndWrite();
  void attach(const std::shared_ptr<profile::TraceRecorder>& recorder);  // null: detach

  EngineController& controller_;
  std::vector<profile::StageProbe*> probes_;
  std::shared_ptr<profile::TraceRecorder> recorder_;  // while recording
  QTimer timer_;
  QString path_;                            // of the trace recorded or being written
  BackgroundJob writer_{"cf-trace-write"};  // last: waited for first (a write is never cut short)
};

}  // namespace cineflow::ui

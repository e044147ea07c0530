#include "profiler/trace_capture.hpp"

#include "base/text_file.hpp"
#include "bridge/engine_controller.hpp"

namespace cineflow::ui {

TraceCapture::TraceCapture(EngineController& controller, std::vector<profile::StageProbe*> probes,
                           QObject* parent)
    : QObject(parent), controller_(controller), probes_(std::move(probes)) {
  timer_.setSingleShot(true);
  connect(&timer_, &QTimer::timeout, this, &TraceCapture::stopAndWrite);
  connect(&writer_, &BackgroundJob::finished, this, [this](bool ok, const QString& message) {
    emit messageReady(message, !ok);
    emit finished(path_, ok);
  });
}

TraceCapture::~TraceCapture() {
  if (recorder_) {
    attach(nullptr);
  }
  // writer_ waits for a write in progress (which never reads its cancel flag).
}

bool TraceCapture::start(int seconds, const QString& path) {
  if (busy()) {
    emit messageReady(tr("A trace is already being recorded or written"), true);
    return false;
  }
  if (seconds < 1 || seconds > 600) {
    emit messageReady(tr("A trace lasts 1 to 600 seconds, not %1").arg(seconds), true);
    return false;
  }
  path_ = path;
  recorder_ = std::make_shared<profile::TraceRecorder>();
  attach(recorder_);
  timer_.start(seconds * 1000);
  emit messageReady(tr("Recording a trace for %n second(s)…", nullptr, seconds), false);
  return true;
}

void TraceCapture::attach(const std::shared_ptr<profile::TraceRecorder>& recorder) {
  controller_.setTraceRecorder(recorder);
  for (profile::StageProbe* probe : probes_) {
    probe->attach(recorder);
  }
}

void TraceCapture::stopAndWrite() {
  attach(nullptr);
  writer_.start([recorder = std::move(recorder_), path = path_](BackgroundJob&) {
    base::writeFileAtomically(path.toStdString(), recorder->chromeJson());  // throws: the error
    QString message = tr("Wrote a trace of %1 spans to %2 (open it in ui.perfetto.dev)")
                          .arg(recorder->size())
                          .arg(path);
    if (recorder->dropped() > 0) {
      message += tr("; %1 spans did not fit").arg(recorder->dropped());
    }
    return BackgroundJob::Result{true, message};
  });
}

}  // namespace cineflow::ui

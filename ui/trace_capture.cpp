#include "trace_capture.hpp"

#include <QMetaObject>
#include <exception>

#include "base/text_file.hpp"
#include "engine_controller.hpp"

namespace cineflow::ui {

TraceCapture::TraceCapture(EngineController& controller, std::vector<profile::StageProbe*> probes,
                           QObject* parent)
    : QObject(parent), controller_(controller), probes_(std::move(probes)) {
  timer_.setSingleShot(true);
  connect(&timer_, &QTimer::timeout, this, &TraceCapture::stopAndWrite);
}

TraceCapture::~TraceCapture() {
  if (recorder_) {
    attach(nullptr);
  }
  if (writer_.joinable()) {
    writer_.join();
  }
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
  if (writer_.joinable()) {
    writer_.join();  // the previous write has finished (writing_ is false)
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
  writing_ = true;
  writer_ = std::thread([this, recorder = std::move(recorder_), path = path_] {
    QString message;
    bool ok = false;
    try {
      base::writeFileAtomically(path.toStdString(), recorder->chromeJson());
      message = tr("Wrote a trace of %1 spans to %2 (open it in ui.perfetto.dev)")
                    .arg(recorder->size())
                    .arg(path);
      if (recorder->dropped() > 0) {
        message += tr("; %1 spans did not fit").arg(recorder->dropped());
      }
      ok = true;
    } catch (const std::exception& error) {
      message = QString::fromStdString(error.what());
    }
    writing_ = false;
    QMetaObject::invokeMethod(
        this,
        [this, message, path, ok] {
          emit messageReady(message, !ok);
          emit finished(path, ok);
        },
        Qt::QueuedConnection);
  });
}

}  // namespace cineflow::ui

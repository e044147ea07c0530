#include "common/background_job.hpp"

#include <QMetaObject>

#include <exception>

#include "base/thread_name.hpp"

namespace cineflow::ui {

BackgroundJob::BackgroundJob(const char* threadName, QObject* parent)
    : QObject(parent), threadName_(threadName) {}

BackgroundJob::~BackgroundJob() {
  cancelAndWait();  // its queued finish() is dropped with this object
}

void BackgroundJob::cancelAndWait() {
  cancel_ = true;
  if (thread_.joinable()) {
    thread_.join();
  }
}

bool BackgroundJob::start(Work work) {
  if (running()) {
    return false;
  }
  cancel_ = false;
  finishPending_ = true;
  thread_ = std::thread([this, work = std::move(work)] {
    base::setCurrentThreadName(threadName_);
    Result result;
    try {
      result = work(*this);
    } catch (const std::exception& error) {
      result = {false, QString::fromStdString(error.what())};
    } catch (...) {
      result = {false, tr("the work failed with an unknown error")};
    }
    QMetaObject::invokeMethod(
        this, [this, result] { finish(result); }, Qt::QueuedConnection);
  });
  return true;
}

void BackgroundJob::finish(const Result& result) {
  if (thread_.joinable()) {
    thread_.join();  // the work posted this as its last act
  }
  finishPending_ = false;
  emit finished(result.ok, result.message);
}

void BackgroundJob::progress(int done, int total) {
  QMetaObject::invokeMethod(
      this, [this, done, total] { emit progressed(done, total); }, Qt::QueuedConnection);
}

}  // namespace cineflow::ui

#pragma once
// BackgroundJob: the GUI's one way to run a piece of work off the GUI thread (a cineloop or video
// export, a trace written to disk). One run at a time, on a thread with a name (seen in a
// debugger, `top -H` and crash reports), with progress and a cancel flag the work reads, and its
// result handed to the GUI thread as a signal. The thread is joined before finished() is emitted
// and by the destructor (which first asks the work to stop), so no work outlives its owner and a
// running job is never detached.
//
// Made, started, cancelled and destroyed on the GUI thread (its owner's). The work runs on the
// job's thread: it may call progress() and read cancelled() / cancelFlag(), and touches no
// widget. An exception the work throws ends the run as a failure with its message.

#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <thread>

namespace cineflow::ui {

class BackgroundJob : public QObject {
  Q_OBJECT

 public:
  struct Result {
    bool ok = true;
    QString message;
  };
  using Work = std::function<Result(BackgroundJob& job)>;

  // `threadName`: at most 15 characters (Linux's limit), by convention "cf-<what>".
  explicit BackgroundJob(const char* threadName, QObject* parent = nullptr);
  ~BackgroundJob() override;  // cancels, then waits for the work
  BackgroundJob(const BackgroundJob&) = delete;
  BackgroundJob& operator=(const BackgroundJob&) = delete;

  // Starts `work` on the job's thread; false, starting nothing, while a run is in progress.
  bool start(Work work);
  // Asks the running work to stop (cancelled() turns true); finished() still follows.
  void cancel() { cancel_ = true; }
  // cancel(), then waits for the work to return (an owner about to take down what the work's
  // posted events would reach). finished() still follows, from the event loop.
  void cancelAndWait();
  // From start() until finished() has been emitted.
  bool running() const { return finishPending_; }

  // For the work, on the job's thread.
  bool cancelled() const { return cancel_.load(); }
  const std::atomic<bool>* cancelFlag() const { return &cancel_; }
  void progress(int done, int total);  // progressed(done, total) on the GUI thread

 signals:
  void progressed(int done, int total);
  void finished(bool ok, const QString& message);

 private:
  void finish(const Result& result);

  const char* threadName_;
  std::atomic<bool> cancel_{false};
  bool finishPending_ = false;  // the GUI thread's
  std::thread thread_;          // last: joined first
};

}  // namespace cineflow::ui

#include "view3d/turntable_recorder.hpp"

#include <algorithm>
#include <chrono>

#include <QTimer>

#include "export/mp4_writer.hpp"
#include "view3d/volume_view.hpp"

namespace cineflow::ui {
namespace {

constexpr auto kPoll = std::chrono::milliseconds(50);  // the encoder's wait, between cancel checks
constexpr int kQueueFullRetryMs = 5;

}  // namespace

TurntableRecorder::TurntableRecorder(VolumeView& view, QObject* parent)
    : QObject(parent), view_(view) {
  connect(&encoder_, &BackgroundJob::progressed, this, &TurntableRecorder::progressed);
  connect(&encoder_, &BackgroundJob::finished, this, [this](bool ok, const QString& message) {
    drawing_ = false;
    emit finished(ok, ok ? tr("Saved %1").arg(path_) : message);
  });
}

TurntableRecorder::~TurntableRecorder() {
  encoder_.cancelAndWait();
}

bool TurntableRecorder::start(const QString& path, double seconds, QSize size) {
  if (running()) {
    return false;
  }
  if (!view_.volume()) {
    emit finished(false, tr("No volume in the 3-D view to turn"));
    return false;
  }
  total_ = std::max(2, static_cast<int>(seconds * kFramesPerSecond));
  drawn_ = 0;
  path_ = path;
  camera_ = view_.camera();
  size_ = size;
  {
    std::scoped_lock lock(mutex_);
    queue_.clear();
    drawError_.clear();
  }
  const std::string file = path.toStdString();
  const int total = total_;
  encoder_.start([this, file, total](BackgroundJob& job) -> BackgroundJob::Result {
    Mp4Writer writer(file, kFramesPerSecond);  // throws: the job finishes with its message
    for (int encoded = 0; encoded < total;) {
      QImage picture;
      {
        std::unique_lock lock(mutex_);
        if (!queued_.wait_for(lock, kPoll,
                              [this, &job] { return !queue_.empty() || job.cancelled(); })) {
          continue;
        }
        if (job.cancelled()) {
          return {false, tr("Turntable cancelled; nothing was written")};
        }
        picture = std::move(queue_.front());
        queue_.pop_front();
        if (picture.isNull()) {
          return {false, tr("The turntable could not be drawn: %1").arg(drawError_)};
        }
      }
      queued_.notify_all();
      writer.write(picture);
      job.progress(++encoded, total);
    }
    writer.finish();
    return {};
  });
  drawing_ = true;
  QTimer::singleShot(0, this, &TurntableRecorder::drawNext);
  return true;
}

void TurntableRecorder::cancel() {
  encoder_.cancel();
  queued_.notify_all();
}

void TurntableRecorder::drawNext() {
  if (!drawing_) {
    return;
  }
  if (!encoder_.running() || encoder_.cancelled()) {
    drawing_ = false;
    return;
  }
  {
    std::scoped_lock lock(mutex_);
    if (queue_.size() >= kQueued) {  // the encoder is behind: look again soon, draw nothing
      QTimer::singleShot(kQueueFullRetryMs, this, &TurntableRecorder::drawNext);
      return;
    }
  }
  VolumeCamera turned = camera_;
  turned.setAngles(camera_.yaw() + 360.0f * static_cast<float>(drawn_) / static_cast<float>(total_),
                   camera_.pitch());
  QString error;
  QImage picture = view_.renderImage(size_, turned, &error);
  const bool failed = picture.isNull();
  {
    std::scoped_lock lock(mutex_);
    queue_.push_back(std::move(picture));  // a null one tells the encoder to stop
    drawError_ = error;
  }
  queued_.notify_all();
  if (failed || ++drawn_ >= total_) {
    drawing_ = false;
    return;
  }
  QTimer::singleShot(0, this, &TurntableRecorder::drawNext);  // the event loop runs in between
}

}  // namespace cineflow::ui

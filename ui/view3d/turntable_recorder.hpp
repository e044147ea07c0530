#pragma once
// TurntableRecorder: a turntable video of a VolumeView (one full turn about the vertical axis at
// 30 frames/s, H.264 MP4, at a size of its own) written without holding the GUI thread. Each
// frame is drawn offscreen on the GUI thread, where the view's OpenGL context lives, one per
// event-loop turn (VolumeView::renderImage, with a copy of the view's camera as it was at the
// start, turned), so the view on screen neither turns nor flickers and may be moved meanwhile;
// the frames are encoded on a worker ("cf-turntable") from a queue of at most kQueued pictures, so
// a slow OpenGL (software, no GPU) or a slow encoder never freezes the window: keys and clicks are
// answered between frames, progress is reported, and cancel() stops it (the partial file is
// removed).

#include <condition_variable>
#include <deque>
#include <mutex>

#include <QImage>
#include <QObject>
#include <QSize>
#include <QString>

#include "common/background_job.hpp"
#include "view3d/volume_camera.hpp"

namespace cineflow::ui {

class VolumeView;

class TurntableRecorder : public QObject {
  Q_OBJECT

 public:
  static constexpr double kFramesPerSecond = 30;
  static constexpr std::size_t kQueued = 4;

  explicit TurntableRecorder(VolumeView& view, QObject* parent = nullptr);
  ~TurntableRecorder() override;  // cancels and waits for the encoder

  // Starts a turntable `seconds` long of `size` pixels (even sides, as H.264 wants) into `path`;
  // false (starting nothing) while one runs or with no volume in the view (finished() then says
  // why).
  bool start(const QString& path, double seconds, QSize size);
  void cancel();
  bool running() const { return encoder_.running(); }

 signals:
  void progressed(int done, int total);  // frames encoded
  // ok: the file is complete at `path`; otherwise `message` says why not ("cancelled" included).
  void finished(bool ok, const QString& message);

 private:
  void drawNext();

  VolumeView& view_;
  BackgroundJob encoder_{"cf-turntable"};
  std::mutex mutex_;
  std::condition_variable queued_;
  std::deque<QImage> queue_;  // drawn, not yet encoded; a null picture: drawing failed
  QString drawError_;         // why, under mutex_
  int total_ = 0;
  int drawn_ = 0;
  bool drawing_ = false;
  VolumeCamera camera_;  // the view's at the start, turned for each frame
  QSize size_;
  QString path_;
};

}  // namespace cineflow::ui

// VolumeReviewPanel's slice video: the selected volume's slices as shown (the live view's look,
// each slice's measurements burnt in) into an MP4 on a worker thread, with progress on the button
// and Cancel on the same button; and the names its views' measurements go under.

#include <QFileDialog>
#include <QMetaObject>
#include <QPushButton>

#include "bmode_view.hpp"
#include "measurement_list.hpp"
#include "mip_triptych.hpp"
#include "picture_video.hpp"
#include "volume_review_panel.hpp"

namespace cineflow::ui {

VolumeReviewPanel::~VolumeReviewPanel() {
  cancelVideo_ = true;
  if (videoThread_.joinable()) {
    videoThread_.join();
  }
}

void VolumeReviewPanel::nameMeasurementViews() {
  const std::uint64_t number = shown_.info.number;
  view_->setMeasurementViewName(volumeViewName(number, tr("slice")));
  const std::pair<MipTriptych::Axis, const char*> axes[] = {
      {MipTriptych::Axis::Y, "y"}, {MipTriptych::Axis::Z, "z"}, {MipTriptych::Axis::X, "x"}};
  for (const auto& [axis, letter] : axes) {
    mips_->view(axis).setMeasurementViewName(
        volumeViewName(number, tr("MIP along %1").arg(QLatin1String(letter))));
  }
}

void VolumeReviewPanel::chooseVideoFile() {
  if (isWritingVideo()) {
    cancelVideo_ = true;  // the button reads Cancel while a video is written
    return;
  }
  if (!selectedId()) {
    return;
  }
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Video of the volume's slices"),
      QStringLiteral("volume_%1_slices.mp4").arg(shown_.info.number, 6, 10, QLatin1Char('0')),
      tr("MP4 video (*.mp4)"));
  if (!path.isEmpty()) {
    exportSlicesVideo(path);
  }
}

bool VolumeReviewPanel::exportSlicesVideo(const QString& path, double framesPerSecond) {
  if (isWritingVideo() || !selectedId() || shown_.slices.empty()) {
    return false;
  }
  // What the thread needs, copied: the slices are shared, immutable frames.
  const std::vector<std::shared_ptr<const Frame>> slices = shown_.slices;
  const PictureOptions options{{view_->gainDb(), view_->dynamicRangeDb(), view_->colourMap(), {}},
                               true};
  const std::vector<Measurement> marks = measurements_ != nullptr
                                             ? measurements_->ofView(view_->measurementViewName())
                                             : std::vector<Measurement>{};
  const std::uint64_t number = shown_.info.number;
  cancelVideo_ = false;
  videoButton_->setText(tr("Cancel video"));
  videoButton_->setEnabled(true);
  videoThread_ = std::thread([this, slices, options, marks, path, framesPerSecond, number] {
    const int total = static_cast<int>(slices.size());
    const PictureVideoResult result =
        writePictureVideo(path, framesPerSecond, options, marks, [&](const auto& sink) {
          for (int i = 0; i < total; ++i) {
            if (cancelVideo_) {
              return QStringLiteral("cancelled");
            }
            QMetaObject::invokeMethod(this, [this, i, total] { emit videoProgress(i, total); });
            sink(*slices[static_cast<std::size_t>(i)]);
          }
          return QString();
        });
    const QString message =
        result.error.isEmpty()
            ? tr("Video of volume %1: %2 slices at %3 frames/s written to %4")
                  .arg(number)
                  .arg(result.frames)
                  .arg(framesPerSecond, 0, 'f', 1)
                  .arg(path)
            : tr("Video of volume %1 not written: %2").arg(number).arg(result.error);
    QMetaObject::invokeMethod(
        this, [this, ok = result.error.isEmpty(), message] { finishVideo(ok, message); });
  });
  return true;
}

void VolumeReviewPanel::finishVideo(bool ok, const QString& message) {
  if (videoThread_.joinable()) {
    videoThread_.join();
  }
  videoButton_->setText(tr("Video…"));
  updateButtons();
  emit videoFinished(ok, message);
}

}  // namespace cineflow::ui

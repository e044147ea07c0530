// VolumeReviewPanel's slice video: the selected volume's slices as shown (the live view's look,
// each slice's measurements burnt in) into an MP4 on a worker thread, with progress on the button
// and Cancel on the same button; and the names its views' measurements go under.

#include <QPushButton>

#include "common/file_dialogs.hpp"
#include "export/picture_video.hpp"
#include "measure/measurement_list.hpp"
#include "view2d/image_view.hpp"
#include "volumes/mip_triptych.hpp"
#include "volumes/volume_review_panel.hpp"

namespace cineflow::ui {

VolumeReviewPanel::~VolumeReviewPanel() = default;  // videoJob_ cancels and waits for a video

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
    videoJob_.cancel();  // the button reads Cancel while a video is written
    return;
  }
  if (!selectedId()) {
    return;
  }
  const QString path = askSaveFile(
      this, file_kinds::kExports, tr("Video of the volume's slices"),
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
  const std::vector<std::shared_ptr<const Image>> slices = shown_.slices;
  const PictureOptions options{
      {view_->gainDb(), view_->dynamicRangeDb(), view_->colourMap(), {}, {}}, true};
  const std::vector<Measurement> marks = measurements_ != nullptr
                                             ? measurements_->ofView(view_->measurementViewName())
                                             : std::vector<Measurement>{};
  const std::uint64_t number = shown_.info.number;
  videoButton_->setText(tr("Cancel video"));
  videoButton_->setEnabled(true);
  videoJob_.start([slices, options, marks, path, framesPerSecond, number](BackgroundJob& job) {
    const int total = static_cast<int>(slices.size());
    const PictureVideoResult result =
        writePictureVideo(path, framesPerSecond, options, marks, [&](const auto& sink) {
          for (int i = 0; i < total; ++i) {
            if (job.cancelled()) {
              return QStringLiteral("cancelled");
            }
            job.progress(i, total);
            sink(*slices[static_cast<std::size_t>(i)], 1);
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
    return BackgroundJob::Result{result.error.isEmpty(), message};
  });
  return true;
}

void VolumeReviewPanel::finishVideo(bool ok, const QString& message) {
  videoButton_->setText(tr("Video…"));
  updateButtons();
  emit videoFinished(ok, message);
}

}  // namespace cineflow::ui

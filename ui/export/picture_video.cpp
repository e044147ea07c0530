#include "export/picture_video.hpp"

#include <exception>

#include "export/mp4_writer.hpp"

namespace cineflow::ui {

PictureVideoResult writePictureVideo(const QString& target, double framesPerSecond,
                                     const PictureOptions& options,
                                     std::span<const Measurement> measurements,
                                     const FrameFeed& feed) {
  PictureVideoResult result;
  try {
    Mp4Writer writer(target.toStdString(), framesPerSecond);
    FramePicture picture(options);
    result.error = feed([&](const Image& frame, int repeats) {
      const QImage& drawn =
          picture.draw(frame, QStringLiteral("seq %1").arg(frame.header.sequence), measurements);
      for (int i = 0; i < repeats; ++i) {
        writer.write(drawn);
      }
    });
    result.frames = writer.frames();
    if (result.error.isEmpty() && result.frames == 0) {
      result.error = QStringLiteral("no frame to write");
    }
    if (result.error.isEmpty()) {
      writer.finish();
    }
  } catch (const std::exception& exception) {
    result.error = QString::fromStdString(exception.what());
  }
  return result;
}

}  // namespace cineflow::ui

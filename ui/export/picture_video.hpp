#pragma once
// Frames drawn as pictures (frame_picture.hpp: the display's look, optionally rulers, and each
// frame's measurements and annotations burnt in) into one MP4 file (mp4_writer.hpp): what the
// cineloop's video export and a volume's slice video share.

#include <functional>
#include <span>

#include <QString>

#include "common/image.hpp"
#include "export/frame_picture.hpp"
#include "measure/measurement.hpp"

namespace cineflow::ui {

// Calls its argument once per frame, in order, with how many video frames the picture lasts (1,
// or more to keep a frame on screen for its real duration); returns "" or why it stopped early
// ("cancelled", a frame that could not be read).
using FrameSink = std::function<void(const Image&, int repeats)>;
using FrameFeed = std::function<QString(const FrameSink& sink)>;

struct PictureVideoResult {
  int frames = 0;
  QString error;  // empty: `target` was published
};

// Writes the frames `feed` gives into `target` at `framesPerSecond`. Publishes the file only
// when the feed finished and gave at least one frame; otherwise nothing is left at `target`.
// Never throws: FFmpeg's failures come back as the error.
PictureVideoResult writePictureVideo(const QString& target, double framesPerSecond,
                                     const PictureOptions& options,
                                     std::span<const Measurement> measurements,
                                     const FrameFeed& feed);

}  // namespace cineflow::ui

#pragma once
// Writes pictures (QImage, any format; converted to RGB32) as an MP4 file of H.264 video through
// FFmpeg's libraries (libavformat's mp4 muxer, libavcodec's H.264 encoder: libx264 where the
// build has it, else the first H.264 encoder there is; libswscale converts RGB to YUV 4:2:0).
//
// Every picture must have the first one's size. H.264 4:2:0 needs even sides: an odd picture is
// padded by one black row or column. Frames are timed at `framesPerSecond` (1/1000 s resolution).
// The file is written under "<path>.partial" and renamed to `path` by finish(); a writer
// destroyed without finish() (an error, a cancel) removes the partial file. Throws
// std::runtime_error with FFmpeg's reason for anything that fails.

#include <memory>
#include <string>

#include <QImage>

namespace cineflow::ui {

class Mp4Writer {
 public:
  // Quality: x264's constant rate factor (0 lossless .. 51; 18 looks lossless to the eye).
  Mp4Writer(const std::string& path, double framesPerSecond, int quality = 18);
  ~Mp4Writer();
  Mp4Writer(const Mp4Writer&) = delete;
  Mp4Writer& operator=(const Mp4Writer&) = delete;

  void write(const QImage& picture);
  // Flushes the encoder, writes the trailer and publishes the file. Nothing after it.
  void finish();
  int frames() const;
  // The encoder's name ("libx264").
  std::string encoder() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace cineflow::ui

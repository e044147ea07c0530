#pragma once
// FrameSource: where raw frames come from (the built-in simulator, an RF recording, later a
// scanner). The engine's acquisition thread owns pacing, looping, sequence numbers and timestamps;
// a source only hands out frame `index` of its finite sequence.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>

#include "acquire/frame.hpp"

namespace cineflow::acquire {

// Thrown for any failure to read a source; the message names the file and object when there is one.
class SourceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A number as a message shows it ("%g": 2e+07, 0.298, nan).
inline std::string numberText(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

// "1 frame", "32 frames": for descriptions and messages.
inline std::string framesText(std::uint64_t count) {
  return std::to_string(count) + (count == 1 ? " frame" : " frames");
}

// Reports a long open's progress (fraction in [0, 1], what it is doing). May throw to abandon
// the open: sources let the exception through and release what they hold.
using ProgressFn = std::function<void(double fraction, const std::string& what)>;

class FrameSource {
 public:
  virtual ~FrameSource() = default;
  virtual const AcquisitionParams& params() const = 0;
  virtual SampleType sampleType() const = 0;
  // Nominal acquisition / replay rate; 0 means "as fast as the consumer takes them".
  virtual double frameRateHz() const = 0;
  // Frames before the sequence repeats (file length, or one elevation sweep of the simulator).
  virtual std::uint64_t frameCount() const = 0;
  // Writes frame `index` (< frameCount()) into `dst`, which holds exactly
  // params().samplesPerFrame() * sampleBytes(sampleType()) bytes of host memory. Called from the
  // acquisition thread only. Throws SourceError.
  virtual void readFrame(std::uint64_t index, std::span<std::byte> dst, SliceInfo& slice) = 0;
  // One line for logs and the status bar ("simulator seed 1", "file.h5 (32 frames)").
  virtual std::string describe() const = 0;

  std::size_t frameBytes() const { return params().samplesPerFrame() * sampleBytes(sampleType()); }
};

}  // namespace cineflow::acquire

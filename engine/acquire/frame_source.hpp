#pragma once
// FrameSource: where raw frames come from (a simulator, a recording, a lab's hardware). The
// engine's acquisition thread owns pacing, looping, sequence numbers and timestamps; a source only
// hands out frame `index` of its finite sequence, as bytes of a fixed size. What the bytes are,
// and which chain images them, is its modality's business (modality/modality.hpp): each modality
// derives its own source type from this one (ultrasound/ultrasound_source.hpp, oct/...).

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "acquire/frame.hpp"
#include "acquire/lost_frames.hpp"
#include "acquire/stored_frame.hpp"

namespace cineflow::modality {
class Modality;
}

namespace cineflow::acquire {

// Thrown for any failure to read a source; the message names the file and object when there is one.
class SourceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One frame whose stored bytes are damaged (a corrupt chunk, bytes that do not match their
// checksum): the source itself stays usable, and the engine skips the frame or stops, as the
// operator chose (pipeline/engine_types.hpp, DamagedFramePolicy).
class DamagedFrameError : public SourceError {
 public:
  using SourceError::SourceError;
};

// Thrown by a live source's readFrame() when stopAcquisition() ended its wait for a frame: the
// acquisition is stopping, nothing went wrong.
class SourceStopped : public SourceError {
 public:
  SourceStopped() : SourceError("the acquisition was stopped") {}
};

// Thrown by a live source's readFrame() when its sender said it finished and the source was told
// to end with it (FrameSource::endWithSender): the source has no more frames, nothing went wrong.
// The engine ends the run there as it does after maxFrames (state Finished).
class SourceEnded : public SourceError {
 public:
  SourceEnded() : SourceError("the sender finished") {}
};

// Thrown by a live source's readFrame() when what it delivers no longer fits the format it opened
// with (an OpenIGTLink server's image changed size when the scanner's depth changed): the run
// fails, and the same source opened again follows the new picture (the GUI does so by itself).
// change() says what changed ("the server's image changed from 96 x 64 uint8 to 97 x 64 uint8");
// what() adds that opening the source again follows it.
class SourceChanged : public SourceError {
 public:
  explicit SourceChanged(const std::string& change)
      : SourceError(change + ": open the source again to follow it"), change_(change) {}
  const std::string& change() const noexcept { return change_; }

 private:
  std::string change_;
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
  // The modality whose chain images these frames (never null; lives as long as the program).
  virtual const modality::Modality& modality() const = 0;
  // Bytes of one raw frame; the same for every frame.
  virtual std::size_t frameBytes() const = 0;
  // Frames per volume (a sweep or raster scan), 0 when the frames do not form volumes.
  virtual int framesPerVolume() const = 0;
  // Nominal acquisition / replay rate; 0 means "as fast as the consumer takes them".
  virtual double frameRateHz() const = 0;
  // Frames before the sequence repeats (file length, or one elevation sweep of the simulator).
  virtual std::uint64_t frameCount() const = 0;
  // Writes frame `index` (< frameCount()) into `dst`, which holds exactly frameBytes() bytes of
  // host memory. Called from the acquisition thread only. Throws SourceError.
  virtual void readFrame(std::uint64_t index, std::span<std::byte> dst, SliceInfo& slice) = 0;
  // How the source's frames are stored when it can hand them over still compressed (codec None:
  // it cannot). The engine then calls readStoredFrame() and decodes where it processes the frame.
  virtual StoredFormat storedFormat() const { return {}; }
  // Frame `index` as stored (one compressed chunk, its stored bytes checked when the recording
  // holds their checksum) into `dst` (at least storedFormat().maxChunkBytes); returns its size, or
  // 0 when this frame must be read with readFrame() instead (stored uncompressed, or its bytes
  // can only be checked once decoded). Throws like readFrame.
  virtual std::size_t readStoredFrame(std::uint64_t /*index*/, std::span<std::byte> /*dst*/,
                                      SliceInfo& /*slice*/) {
    return 0;
  }
  // Live sources (a lab's hardware through a plugin, a network stream) wait inside readFrame()
  // for their next frame. The engine calls startAcquisition() on its controlling thread before
  // the first readFrame() of a run (throws SourceError when the hardware cannot start), and
  // stopAcquisition() when the run ends: from another thread while a readFrame() may be waiting
  // (the stop, a failure elsewhere), which then returns promptly by throwing SourceStopped, and
  // from the acquisition thread itself after its last readFrame() (the run ran its frames out).
  // Calling stopAcquisition() again, or without a start, does nothing. Files and simulators
  // ignore both.
  virtual void startAcquisition() {}
  // Drop policy: the engine had no free host slot for frame `index`. A live source takes that
  // frame from its sender and lets it go (waiting for it, and throwing, as readFrame() would),
  // so that every frame the engine counts, imaged or dropped, is one the sender sent. Files and
  // simulators do nothing.
  virtual void skipFrame(std::uint64_t /*index*/) {}
  virtual void stopAcquisition() {}
  // Frames the source knows were lost before they reached Cineflow (a sender's sequence gaps, a
  // plugin's reported losses), since it opened. Any thread.
  virtual std::uint64_t lostFrames() const { return 0; }
  // The same by why, with frames left out that were not this source's (a second sender's, which
  // lostFrames() does not count). Any thread.
  virtual LostFrames lostFramesByKind() const { return {.sequenceGaps = lostFrames()}; }
  // A live source whose sender can say it finished (a network stream's "end"): with true, the
  // readFrame() that would wait after it throws SourceEnded instead, so that a run without a
  // frame count (the command line's) ends with the sender. False, as opened, keeps waiting for
  // a sender to start again (the GUI's live view). Call before the run starts.
  virtual void endWithSender(bool /*end*/) {}
  // What a live source is doing when it is not delivering frames ("waiting for frames on
  // tcp://*:5555: nothing for 4 s"); empty while frames arrive. Any thread.
  virtual std::string liveStatus() const { return {}; }
  // A live source's transport counters since its run started, named as the operator reads them
  // ("buffers", "incomplete", "underruns", "packets resent" for a camera's stream), the first
  // the count of whole deliveries, the others trouble; empty for sources without a transport of
  // their own. Any thread.
  virtual std::vector<std::pair<std::string, std::uint64_t>> transportCounters() const {
    return {};
  }
  // One line for logs and the status bar ("simulator seed 1", "file.h5 (32 frames)").
  virtual std::string describe() const = 0;
  // The source that says what the frames are: itself, or for a source that wraps another to add
  // behaviour (admission control, recording), the wrapped one's origin. Modalities read their
  // own description of the frames from it.
  virtual const FrameSource& origin() const { return *this; }
};

}  // namespace cineflow::acquire

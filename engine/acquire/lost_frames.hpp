#pragma once
// Frames of a live source that were never imaged, by why (a network stream's sequence gaps,
// truncated frames, frames from a second sender; a camera's frame-id gaps and incomplete
// buffers), and how a report says so.

#include <cstdint>
#include <string>
#include <vector>

namespace cineflow::acquire {

struct LostFrames {
  // Sequence numbers the sender skipped: frames it acquired and never sent (or sent and the
  // network lost).
  std::uint64_t sequenceGaps = 0;
  // Frames that arrived with another size than the stream's frame_bytes: left out, their sequence
  // numbers kept as gaps.
  std::uint64_t truncated = 0;
  // Frames from a second sender while the first was still streaming: not this stream's frames,
  // left out without a gap.
  std::uint64_t otherSender = 0;
  // A camera's buffers that arrived incomplete (missing packets, a timeout): left out, their
  // place in the sequence kept.
  std::uint64_t incomplete = 0;

  // The frames of this stream that never arrived whole (gaps, truncated, incomplete): what moves
  // the engine's sequence numbers on.
  std::uint64_t ofThisStream() const { return sequenceGaps + truncated + incomplete; }
  bool any() const { return ofThisStream() + otherSender > 0; }
  LostFrames since(const LostFrames& earlier) const {
    return {sequenceGaps - earlier.sequenceGaps, truncated - earlier.truncated,
            otherSender - earlier.otherSender, incomplete - earlier.incomplete};
  }
};

// One line per kind that happened, for a run's report: "lost 2 frames: gaps in the sender's
// sequence numbers", "lost 1 frame: truncated (...)", "left out 3 frames from a second sender
// (...)". Empty when none.
std::vector<std::string> lostFrameLines(const LostFrames& lost);

}  // namespace cineflow::acquire

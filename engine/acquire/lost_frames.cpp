#include "acquire/lost_frames.hpp"

#include "acquire/frame_source.hpp"

namespace cineflow::acquire {

std::vector<std::string> lostFrameLines(const LostFrames& lost) {
  std::vector<std::string> lines;
  if (lost.sequenceGaps > 0) {
    lines.push_back("lost " + framesText(lost.sequenceGaps) +
                    ": gaps in the sender's sequence numbers (never sent, or lost on the way)");
  }
  if (lost.truncated > 0) {
    lines.push_back("lost " + framesText(lost.truncated) +
                    ": truncated (their bytes were not the header's frame_bytes)");
  }
  if (lost.incomplete > 0) {
    lines.push_back("lost " + framesText(lost.incomplete) +
                    ": camera buffers that arrived incomplete (missing packets, a timeout)");
  }
  if (lost.otherSender > 0) {
    lines.push_back("left out " + framesText(lost.otherSender) +
                    " from a second sender (one sender streams at a time; the first kept on)");
  }
  return lines;
}

}  // namespace cineflow::acquire

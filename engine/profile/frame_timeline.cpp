#include "profile/frame_timeline.hpp"

#include <algorithm>

namespace cineflow::profile {

FrameTimeline::FrameTimeline(std::size_t capacity) : ring_(std::max<std::size_t>(1, capacity)) {}

void FrameTimeline::add(const FrameTiming& timing) {
  ring_[next_] = timing;
  next_ = (next_ + 1) % ring_.size();
  count_ = std::min(count_ + 1, ring_.size());
}

void FrameTimeline::clear() {
  next_ = 0;
  count_ = 0;
}

void FrameTimeline::copyLast(std::size_t n, std::vector<FrameTiming>& out) const {
  out.clear();
  const std::size_t taken = std::min(n, count_);
  for (std::size_t i = 0; i < taken; ++i) {
    out.push_back(ring_[(next_ + ring_.size() - taken + i) % ring_.size()]);
  }
}

}  // namespace cineflow::profile

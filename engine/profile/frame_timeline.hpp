#pragma once
// FrameTimeline: the stage times of the last N frames, oldest first, for the profiler overlay's
// stacked-bar timeline. Storage is sized once; add() never allocates. Not thread-safe: guard it.

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace cineflow::profile {

inline constexpr int kMaxTimedStages = 8;

struct FrameTiming {
  std::uint64_t sequence = 0;
  int stages = 0;                                // entries of stageMs in use
  std::array<float, kMaxTimedStages> stageMs{};  // the engine's: upload, then the processor's
  float frameMs = 0;                             // upload start to image complete
};

class FrameTimeline {
 public:
  explicit FrameTimeline(std::size_t capacity = 256);
  void add(const FrameTiming& timing);
  void clear();
  std::size_t size() const { return count_; }
  std::size_t capacity() const { return ring_.size(); }
  // The newest min(n, size()) frames, oldest first, into `out` (which is cleared first).
  void copyLast(std::size_t n, std::vector<FrameTiming>& out) const;

 private:
  std::vector<FrameTiming> ring_;
  std::size_t next_ = 0;
  std::size_t count_ = 0;
};

}  // namespace cineflow::profile

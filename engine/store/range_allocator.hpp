#pragma once
// First-fit allocation of ranges inside one fixed reservation (the VolumeStore's pool), so that
// buffering a volume never calls the device allocator. Not thread-safe: the owner locks.

#include <cstddef>
#include <map>
#include <optional>

namespace cineflow::store {

class RangeAllocator {
 public:
  explicit RangeAllocator(std::size_t capacity = 0);

  // The offset of a free range of `size` units, or nullopt when no free range is that large.
  // Never allocates host memory (release() may).
  std::optional<std::size_t> allocate(std::size_t size);
  // Returns a range obtained from allocate() (merging it with free neighbours).
  void release(std::size_t offset, std::size_t size);

  std::size_t capacity() const { return capacity_; }
  std::size_t used() const { return used_; }
  std::size_t largestFree() const;

 private:
  std::size_t capacity_ = 0;
  std::size_t used_ = 0;
  std::map<std::size_t, std::size_t> free_;  // offset -> size, disjoint, never adjacent
};

}  // namespace cineflow::store

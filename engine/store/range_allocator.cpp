#include "store/range_allocator.hpp"

#include <algorithm>
#include <iterator>
#include <stdexcept>

namespace cineflow::store {

RangeAllocator::RangeAllocator(std::size_t capacity) : capacity_(capacity) {
  if (capacity > 0) {
    free_.emplace(0, capacity);
  }
}

std::optional<std::size_t> RangeAllocator::allocate(std::size_t size) {
  if (size == 0) {
    return std::nullopt;
  }
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second >= size) {
      const std::size_t offset = it->first;
      const std::size_t rest = it->second - size;
      // The remainder reuses the range's map node: allocate() never calls the heap.
      auto node = free_.extract(it);
      if (rest > 0) {
        node.key() = offset + size;
        node.mapped() = rest;
        free_.insert(std::move(node));
      }
      used_ += size;
      return offset;
    }
  }
  return std::nullopt;
}

void RangeAllocator::release(std::size_t offset, std::size_t size) {
  if (size == 0 || offset + size > capacity_ || size > used_) {
    throw std::logic_error("RangeAllocator: releasing a range it did not hand out");
  }
  used_ -= size;
  auto next = free_.lower_bound(offset);
  if (next != free_.begin()) {
    auto previous = std::prev(next);
    if (previous->first + previous->second == offset) {  // merge with the range before
      offset = previous->first;
      size += previous->second;
      free_.erase(previous);
    }
  }
  if (next != free_.end() && offset + size == next->first) {  // and with the range after
    size += next->second;
    free_.erase(next);
  }
  free_.emplace(offset, size);
}

std::size_t RangeAllocator::largestFree() const {
  std::size_t largest = 0;
  for (const auto& [offset, size] : free_) {
    largest = std::max(largest, size);
  }
  return largest;
}

}  // namespace cineflow::store

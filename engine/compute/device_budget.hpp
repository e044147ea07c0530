#pragma once
// DeviceMemoryBudget: the most device memory (MemorySpace::Device) a backend hands out, for an
// operator who shares a GPU with other programs, or who wants a configuration refused up front
// rather than failing on a smaller card (`--gpu-memory-budget MIB`). Both backends count their
// device allocations here: an allocation that would pass the budget throws, naming the budget,
// what is in use and what was asked, and allocates nothing. Allocations happen at configuration
// time only (never in the frame loop), so a mutex is cheap here. Thread-safe.

#include <cstddef>
#include <mutex>
#include <unordered_map>

namespace cineflow::compute {

class DeviceMemoryBudget {
 public:
  // `bytes` 0: no budget (all the device has).
  void setLimit(std::size_t bytes);
  std::size_t limit() const;
  std::size_t used() const;
  // Counts `bytes` for `ptr`, which the caller allocates next; throws std::runtime_error
  // "device memory budget: ..." (nothing counted) when that passes the limit. `device` names
  // the memory in the message ("GPU", "CPU backend").
  void reserve(std::size_t bytes, const char* device);
  // After the allocation: ties the bytes reserved to `ptr`; or gives them back when it failed.
  void commit(const void* ptr, std::size_t bytes);
  void cancel(std::size_t bytes);
  // Gives back what `ptr` was counted for (nothing for a pointer it does not know).
  void release(const void* ptr);

 private:
  mutable std::mutex mutex_;
  std::size_t limit_ = 0, used_ = 0;
  std::unordered_map<const void*, std::size_t> sizes_;
};

}  // namespace cineflow::compute

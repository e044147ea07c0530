#include "compute/device_budget.hpp"

#include <cstdio>
#include <stdexcept>
#include <string>

namespace cineflow::compute {
namespace {

std::string mebibytes(std::size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  return text;
}

}  // namespace

void DeviceMemoryBudget::setLimit(std::size_t bytes) {
  const std::lock_guard lock(mutex_);
  limit_ = bytes;
}

std::size_t DeviceMemoryBudget::limit() const {
  const std::lock_guard lock(mutex_);
  return limit_;
}

std::size_t DeviceMemoryBudget::used() const {
  const std::lock_guard lock(mutex_);
  return used_;
}

void DeviceMemoryBudget::reserve(std::size_t bytes, const char* device) {
  const std::lock_guard lock(mutex_);
  if (limit_ != 0 && (bytes > limit_ || used_ > limit_ - bytes)) {
    throw std::runtime_error(std::string("device memory budget: this configuration needs ") +
                             mebibytes(bytes) + " more of " + device + " memory, but " +
                             mebibytes(used_) + " of the " + mebibytes(limit_) +
                             " budget are in use (raise --gpu-memory-budget, or 0 for no budget; "
                             "or choose a smaller grid or fewer frames per volume)");
  }
  used_ += bytes;
}

void DeviceMemoryBudget::commit(const void* ptr, std::size_t bytes) {
  const std::lock_guard lock(mutex_);
  sizes_[ptr] = bytes;
}

void DeviceMemoryBudget::cancel(std::size_t bytes) {
  const std::lock_guard lock(mutex_);
  used_ -= bytes;
}

void DeviceMemoryBudget::release(const void* ptr) {
  const std::lock_guard lock(mutex_);
  const auto it = sizes_.find(ptr);
  if (it != sizes_.end()) {
    used_ -= it->second;
    sizes_.erase(it);
  }
}

}  // namespace cineflow::compute

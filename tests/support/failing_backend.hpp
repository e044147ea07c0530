#pragma once
// A backend that forwards to another but refuses device allocations above a byte limit, as a
// device out of memory would: for tests of what a failed allocation leaves behind.

#include <memory>
#include <stdexcept>
#include <string>

#include "compute/backend.hpp"

namespace cineflow::test {

class FailingBackend final : public compute::Backend {
 public:
  FailingBackend(compute::Backend& inner, std::size_t deviceLimitBytes)
      : inner_(inner), limit_(deviceLimitBytes) {}

  compute::BackendKind kind() const override { return inner_.kind(); }
  std::string deviceName() const override { return inner_.deviceName() + " (failing)"; }
  std::unique_ptr<compute::Stream> createStream(const std::string& name) override {
    return inner_.createStream(name);
  }
  std::unique_ptr<compute::Event> createEvent() override { return inner_.createEvent(); }
  void copyBlocking(void* dst, const void* src, std::size_t bytes) const override {
    inner_.copyBlocking(dst, src, bytes);
  }
  void zeroBlocking(void* dst, std::size_t bytes) const override {
    inner_.zeroBlocking(dst, bytes);
  }
  compute::DeviceMemoryInfo memoryInfo() const override { return inner_.memoryInfo(); }

 protected:
  void* allocateMemory(compute::MemorySpace space, std::size_t bytes) override {
    if (space == compute::MemorySpace::Device && bytes > limit_) {
      throw std::runtime_error("out of device memory allocating " + std::to_string(bytes) +
                               " bytes (injected)");
    }
    return inner_.allocate(space, bytes);
  }
  void deallocateMemory(compute::MemorySpace space, void* ptr) noexcept override {
    inner_.deallocate(space, ptr);
  }

 private:
  compute::Backend& inner_;
  std::size_t limit_;
};

}  // namespace cineflow::test

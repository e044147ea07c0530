#pragma once
// CPU backend: streams are worker threads, "device" and "pinned" memory are 64-byte aligned host
// memory, so every pipeline mechanism (events, host callbacks, async copies, overflow) runs and is
// tested exactly as it will on the GPU.

#include "compute/backend.hpp"

namespace cineflow::compute::cpu {

class CpuBackend final : public Backend {
 public:
  BackendKind kind() const override { return BackendKind::Cpu; }
  std::string deviceName() const override;
  std::string hardwareIdentity() const override;  // /proc/cpuinfo's model name
  std::unique_ptr<Stream> createStream(const std::string& name) override;
  std::unique_ptr<Event> createEvent() override;
  void copyBlocking(void* dst, const void* src, std::size_t bytes) const override;
  void zeroBlocking(void* dst, std::size_t bytes) const override;
  DeviceMemoryInfo memoryInfo() const override;

 protected:
  void* allocateMemory(MemorySpace space, std::size_t bytes) override;
  void deallocateMemory(MemorySpace space, void* ptr) noexcept override;
};

}  // namespace cineflow::compute::cpu

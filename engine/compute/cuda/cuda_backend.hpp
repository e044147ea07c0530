#pragma once
// CUDA backend: one device; device memory from cudaMalloc, pinned memory from cudaHostAlloc,
// non-blocking streams, timing events.

#include <cstdint>

#include "compute/backend.hpp"

namespace cineflow::compute::cuda {

class CudaBackend final : public Backend {
 public:
  // Selects `device` and warms up the context; throws CudaError naming the reason.
  explicit CudaBackend(int device = 0);
  BackendKind kind() const override { return BackendKind::Cuda; }
  std::string deviceName() const override { return name_; }
  std::string hardwareIdentity() const override;  // "NVIDIA driver for CUDA 13.0"
  std::unique_ptr<Stream> createStream(const std::string& name) override;
  std::unique_ptr<Event> createEvent() override;
  std::unique_ptr<Event> createSyncEvent() override;
  void copyBlocking(void* dst, const void* src, std::size_t bytes) const override;
  void zeroBlocking(void* dst, std::size_t bytes) const override;
  DeviceMemoryInfo memoryInfo() const override;
  int device() const { return device_; }
  // Waits until the work another library enqueued on its stream has completed, before Cineflow
  // reads memory that work writes (a GPU array handed over with a stream: CUDA array interface v3
  // and DLPack conventions, 1 the legacy default stream, 2 the per-thread default, else a
  // cudaStream_t as an integer). Throws CudaError.
  void synchronizeExternalStream(std::uintptr_t stream) const;
  // Where another library's allocation lies, as CUDA knows it: device (or managed) memory of
  // `device`, page-locked host memory the device can read, or memory CUDA does not know
  // (ordinary host memory, a pointer from another process). Never throws.
  struct PointerPlace {
    enum class Kind { Device, PinnedHost, Unknown } kind = Kind::Unknown;
    int device = -1;
  };
  PointerPlace placeOfPointer(const void* pointer) const noexcept;

 private:
  int device_;
  std::string name_;

 protected:
  void* allocateMemory(MemorySpace space, std::size_t bytes) override;
  void deallocateMemory(MemorySpace space, void* ptr) noexcept override;
};

}  // namespace cineflow::compute::cuda

#pragma once
// RAII owner of a non-blocking cudaStream_t. Host tasks go through cudaLaunchHostFunc; each task
// lives in a slot of a fixed ring owned by the stream (no allocation per task), freed by the
// callback once it has run. The destructor synchronises, then destroys the stream. Kernels on the
// stream report the faults they detect themselves into its fault word (device_fault.hpp), which
// takeError() reads with the stream's other errors.

#include <cuda_runtime.h>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "compute/backend.hpp"
#include "compute/cuda/device_fault.hpp"

namespace cineflow::compute::cuda {

class CudaStream final : public Stream {
 public:
  static constexpr std::size_t kHostTaskSlots = 1024;

  explicit CudaStream(std::string name);
  ~CudaStream() override;
  CudaStream(const CudaStream&) = delete;
  CudaStream& operator=(const CudaStream&) = delete;

  const std::string& name() const override { return name_; }
  void record(Event& event) override;
  void wait(const Event& event) override;
  void enqueueHost(HostTask task) override;
  void copyAsync(void* dst, const void* src, std::size_t bytes) override;
  void synchronize() override;
  std::string takeError() override;
  cudaStream_t get() const { return stream_; }
  // Where kernels on this stream report faults: pass it to the kernel with a registered code.
  unsigned* faultWord() const { return faults_.device(); }

 private:
  struct TaskSlot {
    CudaStream* owner = nullptr;
    HostTask task;
    std::atomic<bool> busy{false};
  };
  static void CUDART_CB runHostTask(void* slot);

  std::string name_;
  DeviceFaultWord faults_;
  cudaStream_t stream_ = nullptr;
  std::unique_ptr<TaskSlot[]> slots_;
  std::size_t nextSlot_ = 0;
  std::mutex mutex_;
  std::condition_variable slotFreed_;
  std::string error_;
};

[[noreturn]] void throwForeignStream();

// `stream` as the CUDA stream it is, for a launch: its kind() checked, then a static cast (no
// dynamic cast per launch). std::invalid_argument for a stream of another backend.
inline CudaStream& asCudaStream(Stream& stream) {
  if (stream.kind() != BackendKind::Cuda) {
    throwForeignStream();
  }
  return static_cast<CudaStream&>(stream);
}

}  // namespace cineflow::compute::cuda

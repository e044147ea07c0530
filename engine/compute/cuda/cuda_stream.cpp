#include "compute/cuda/cuda_stream.hpp"

#include <exception>
#include <iostream>
#include <optional>
#include <stdexcept>

#include "compute/annotate.hpp"
#include "compute/cuda/cuda_check.hpp"
#include "compute/cuda/cuda_event.hpp"

namespace cineflow::compute::cuda {

CudaStream::CudaStream(std::string name)
    : Stream(BackendKind::Cuda),
      name_(std::move(name)),
      slots_(std::make_unique<TaskSlot[]>(kHostTaskSlots)) {
  check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
  for (std::size_t i = 0; i < kHostTaskSlots; ++i) {
    slots_[i].owner = this;
  }
}

CudaStream::~CudaStream() {
  cudaError_t status = cudaStreamSynchronize(stream_);
  if (status == cudaSuccess) {
    status = cudaStreamDestroy(stream_);
  }
  if (status != cudaSuccess) {
    std::cerr << "cineflow: destroying stream " << name_ << ": " << cudaGetErrorString(status)
              << '\n';
  }
}

void CudaStream::record(Event& event) {
  check(cudaEventRecord(asCudaEvent(event).get(), stream_), "cudaEventRecord");
}

void CudaStream::wait(const Event& event) {
  check(cudaStreamWaitEvent(stream_, asCudaEvent(event).get(), 0), "cudaStreamWaitEvent");
}

// Runs on the driver's callback thread: nothing may escape it, so every exception becomes the
// stream's error.
void CUDART_CB CudaStream::runHostTask(void* opaque) {
  auto* slot = static_cast<TaskSlot*>(opaque);
  CudaStream& owner = *slot->owner;
  std::optional<std::string> error;
  try {
    const ScopedRange range("host task");
    slot->task();
  } catch (const std::exception& e) {
    error = e.what();
  } catch (...) {
    error = kUnknownTaskException;
  }
  if (error) {
    std::lock_guard lock(owner.mutex_);
    if (owner.error_.empty()) {
      owner.error_ = "stream " + owner.name_ + ": " + *error;
    }
  }
  slot->task.reset();
  {
    std::lock_guard lock(owner.mutex_);
    slot->busy.store(false);
  }
  owner.slotFreed_.notify_all();
}

void CudaStream::enqueueHost(HostTask task) {
  TaskSlot* slot = nullptr;
  {
    // Slots complete in stream order, so the oldest one is the next to free: wait for it.
    std::unique_lock lock(mutex_);
    slot = &slots_[nextSlot_];
    slotFreed_.wait(lock, [&] { return !slot->busy.load(); });
    nextSlot_ = (nextSlot_ + 1) % kHostTaskSlots;
    slot->busy.store(true);
  }
  slot->task = std::move(task);
  const cudaError_t status = cudaLaunchHostFunc(stream_, &CudaStream::runHostTask, slot);
  if (status != cudaSuccess) {
    slot->task.reset();
    slot->busy.store(false);
    check(status, "cudaLaunchHostFunc");
  }
}

void CudaStream::copyAsync(void* dst, const void* src, std::size_t bytes) {
  if (bytes == 0) {
    return;
  }
  check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, stream_), "cudaMemcpyAsync", bytes);
}

void CudaStream::synchronize() {
  check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
}

std::string CudaStream::takeError() {
  const cudaError_t status = cudaStreamQuery(stream_);
  const unsigned fault = faults_.take();
  std::lock_guard lock(mutex_);
  if (error_.empty() && status != cudaSuccess && status != cudaErrorNotReady) {
    error_ = "stream " + name_ + ": " + cudaGetErrorString(status);
  }
  if (error_.empty() && fault != 0) {
    error_ = "stream " + name_ + ": " + deviceFaultMessage(fault);
  }
  return std::exchange(error_, std::string());
}

void throwForeignStream() {
  throw std::invalid_argument("a CUDA stage was given a stream of another backend");
}

}  // namespace cineflow::compute::cuda

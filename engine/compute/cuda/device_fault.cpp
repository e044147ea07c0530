#include "compute/cuda/device_fault.hpp"

#include <cuda_runtime.h>

#include <atomic>
#include <iostream>
#include <mutex>
#include <vector>

#include "compute/cuda/cuda_check.hpp"

namespace cineflow::compute::cuda {
namespace {

struct FaultRegistry {
  std::mutex mutex;
  std::vector<std::string> messages;  // code c is messages[c - 1]
};

FaultRegistry& registry() {
  static FaultRegistry instance;
  return instance;
}

}  // namespace

unsigned registerDeviceFault(std::string message) {
  FaultRegistry& faults = registry();
  std::lock_guard lock(faults.mutex);
  faults.messages.push_back(std::move(message));
  return static_cast<unsigned>(faults.messages.size());
}

std::string deviceFaultMessage(unsigned code) {
  FaultRegistry& faults = registry();
  std::lock_guard lock(faults.mutex);
  if (code == 0 || code > faults.messages.size()) {
    return "a kernel reported fault " + std::to_string(code) + ", which no launcher registered";
  }
  return faults.messages[code - 1];
}

DeviceFaultWord::DeviceFaultWord() {
  void* host = nullptr;
  check(cudaHostAlloc(&host, sizeof(unsigned), cudaHostAllocMapped), "allocating a fault word",
        sizeof(unsigned));
  host_ = static_cast<unsigned*>(host);
  *host_ = 0;
  void* device = nullptr;
  const cudaError_t status = cudaHostGetDevicePointer(&device, host, 0);
  if (status != cudaSuccess) {
    cudaFreeHost(host);
    check(status, "mapping a fault word into the device");
  }
  device_ = static_cast<unsigned*>(device);
}

DeviceFaultWord::~DeviceFaultWord() {
  const cudaError_t status = cudaFreeHost(host_);
  if (status != cudaSuccess) {
    std::cerr << "cineflow: freeing a fault word: " << cudaGetErrorString(status) << '\n';
  }
}

unsigned DeviceFaultWord::take() noexcept {
  return std::atomic_ref<unsigned>(*host_).exchange(0, std::memory_order_acquire);
}

}  // namespace cineflow::compute::cuda

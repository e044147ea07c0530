#include "compute/cuda/cuda_check.hpp"

#include <cstdlib>
#include <cstring>

namespace cineflow::compute::cuda {

void check(cudaError_t status, const char* what, std::size_t bytes) {
  if (status == cudaSuccess) {
    return;
  }
  int device = -1;
  cudaGetDevice(&device);
  std::string message = what;
  if (bytes > 0) {
    message += " (" + std::to_string(bytes) + " bytes)";
  }
  message += " on device " + std::to_string(device) + ": " + cudaGetErrorName(status) + ", " +
             cudaGetErrorString(status);
  throw CudaError(message);
}

bool debugSyncEnabled() noexcept {
  static const bool enabled = [] {
    const char* value = std::getenv("CINEFLOW_CUDA_SYNC");
    return value != nullptr && std::strcmp(value, "0") != 0;
  }();
  return enabled;
}

void checkLaunch(const char* kernel, cudaStream_t stream) {
  check(cudaGetLastError(), kernel);
  if (debugSyncEnabled()) {
    check(cudaStreamSynchronize(stream), kernel);
  }
}

}  // namespace cineflow::compute::cuda

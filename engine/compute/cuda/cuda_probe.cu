#include <cuda_runtime.h>

#include "compute/cuda/cuda_probe.hpp"

namespace cineflow::compute::cuda {
namespace {

// A trivial kernel so that this translation unit proves the device-code toolchain works.
__global__ void touchKernel(int* value) {
  *value = 1;
}

}  // namespace

ProbeResult probeDevices() noexcept {
  ProbeResult result;
  cudaRuntimeGetVersion(&result.runtimeVersion);
  cudaDriverGetVersion(&result.driverVersion);
  int count = 0;
  // Without a driver this returns an error rather than zero devices (DESIGN.md §7).
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    result.reason = cudaGetErrorString(status);
    cudaGetLastError();  // clear the sticky error so later calls start clean
    return result;
  }
  if (count == 0) {
    result.reason = "no CUDA device present";
    return result;
  }
  cudaDeviceProp props{};
  if (cudaGetDeviceProperties(&props, 0) == cudaSuccess) {
    result.deviceName = props.name;
  }
  int* flag = nullptr;
  if (cudaMalloc(&flag, sizeof(int)) != cudaSuccess) {
    result.reason = "device 0 cannot allocate memory";
    cudaGetLastError();
    return result;
  }
  touchKernel<<<1, 1>>>(flag);
  const cudaError_t launch = cudaDeviceSynchronize();
  cudaFree(flag);
  if (launch != cudaSuccess) {
    result.reason =
        std::string("device 0 cannot run Cineflow's kernels: ") + cudaGetErrorString(launch);
    cudaGetLastError();
    return result;
  }
  result.deviceCount = count;
  return result;
}

}  // namespace cineflow::compute::cuda

#pragma once
// Every CUDA runtime call is checked with context (house style rule 4, docs/development.md): what
// was attempted, how many bytes, on which device. Launchers call checkLaunch() after each kernel;
// with the environment variable CINEFLOW_CUDA_SYNC=1 it also synchronises, so an asynchronous fault
// is reported by the kernel that caused it.

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace cineflow::compute::cuda {

class CudaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws CudaError("<what> (<bytes> bytes) on device <n>: <CUDA error>") unless status is success.
void check(cudaError_t status, const char* what, std::size_t bytes = 0);
// After a kernel launch: checks the launch, and synchronises in debug-sync mode.
void checkLaunch(const char* kernel, cudaStream_t stream);
bool debugSyncEnabled() noexcept;

}  // namespace cineflow::compute::cuda

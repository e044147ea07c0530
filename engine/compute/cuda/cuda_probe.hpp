#pragma once
// Finds out whether a usable CUDA device exists, and if not, why (compute/cuda_diagnosis.hpp).
// Compiled only when CINEFLOW_HAVE_CUDA.

#include <cuda_runtime.h>

#include <string>

#include "compute/cuda_diagnosis.hpp"

namespace cineflow::compute::cuda {

// Which CudaProblem a CUDA error means; `driverVersion` (cudaDriverGetVersion) tells a missing
// driver (0) from an old one. Pure: no CUDA call.
CudaProblem classifyCudaError(cudaError_t status, int driverVersion) noexcept;

// Tries the device that CINEFLOW_CUDA_DEVICE names (default 0) as the backend will use it: the
// driver, the device count, the device, its context, this build's code for it (a test kernel is
// loaded, run and its result read back). facts.problem is None when all of it works.
CudaFacts diagnoseCuda() noexcept;

struct ProbeResult {
  int deviceCount = 0;     // devices, 0 when none is usable (see reason)
  std::string deviceName;  // of the device tried
  std::string reason;      // why none is usable (describeCudaProblem)
  int driverVersion = 0;
  int runtimeVersion = 0;
};

// diagnoseCuda(), summed up.
ProbeResult probeDevices() noexcept;

}  // namespace cineflow::compute::cuda

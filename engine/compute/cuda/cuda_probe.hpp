#pragma once
// Finds out whether a usable CUDA device exists. Compiled only when CINEFLOW_HAVE_CUDA.

#include <string>

namespace cineflow::compute::cuda {

struct ProbeResult {
  int deviceCount = 0;     // usable devices (0 when the driver is missing or too old)
  std::string deviceName;  // of device 0
  std::string reason;      // why there is none, from the runtime ("no CUDA-capable device...")
  int driverVersion = 0;
  int runtimeVersion = 0;
};

ProbeResult probeDevices() noexcept;

}  // namespace cineflow::compute::cuda

#pragma once
// Why the CUDA backend cannot start, in words an operator can act on. Plain C++ without CUDA
// headers, so that every build and its tests have it: the probe (cuda/cuda_probe.hpp) gathers the
// facts, describeCudaProblem() turns them into the reason that createBackend() reports ("CUDA
// unavailable: <reason>") and that `--backend cuda` fails with.

#include <string>
#include <vector>

namespace cineflow::compute {

enum class CudaProblem {
  None,               // the device runs Cineflow's kernels
  NotBuilt,           // this build has no CUDA code
  NoDriver,           // no NVIDIA driver (libcuda) is installed
  DriverTooOld,       // the driver supports an older CUDA than this build's runtime
  DriverMismatch,     // the driver's kernel module and libcuda are different versions
  StubDriver,         // the CUDA toolkit's stub libcuda was loaded instead of the driver's
  NoDevice,           // the driver sees no CUDA device
  DeviceIndex,        // CINEFLOW_CUDA_DEVICE names no device
  DeviceUnavailable,  // exclusive-process and taken, or prohibited (compute mode)
  NoKernelImage,      // this build has no code for the device's architecture
  PtxTooNew,          // the driver cannot compile this build's PTX: it is older than the toolkit
  PtxJitFailed,       // the driver's PTX compiler failed, is missing or is disabled
  Other,              // anything else, named as CUDA names it
};

struct CudaFacts {
  CudaProblem problem = CudaProblem::None;
  std::string call;        // what failed ("cudaGetDeviceCount", "cudaSetDevice(1)", ...)
  std::string errorName;   // CUDA's name of the error ("cudaErrorNoDevice"); empty for none
  std::string errorText;   // CUDA's description of it
  int driverVersion = 0;   // the newest CUDA the driver supports (12040: 12.4); 0: no driver
  int runtimeVersion = 0;  // the CUDA runtime this build uses (13000: 13.0)
  int deviceCount = 0;
  int device = -1;  // the device tried (-1: none got that far)
  std::string deviceName;
  int computeMajor = 0;
  int computeMinor = 0;
  std::vector<int> builtArchitectures;  // as nvcc's __CUDA_ARCH_LIST__ numbers them: 750, 860
  std::string visibleDevices;           // CUDA_VISIBLE_DEVICES, when set
  std::string deviceSetting;            // CINEFLOW_CUDA_DEVICE, when set
};

// "12.4" for 12040, as cudaDriverGetVersion and cudaRuntimeGetVersion number versions.
std::string cudaVersionText(int version);
// "sm_75, sm_80, sm_86" for {750, 800, 860}.
std::string architecturesText(const std::vector<int>& architectures);
// The reason, starting with its gist (the status bar may show only the start) and ending with the
// failed call and CUDA's error name in brackets. Empty for CudaProblem::None.
std::string describeCudaProblem(const CudaFacts& facts);

}  // namespace cineflow::compute

#include <cuda_runtime.h>

#include <cstdlib>
#include <string>

#include "compute/cuda/cuda_probe.hpp"

namespace cineflow::compute::cuda {
namespace {

constexpr int kProbeValue = 0x0c1ef10;

// Loaded and run on the device before the backend is used: proves that this build carries code
// the device can run (its kernels are compiled with the same architecture list).
__global__ void probeKernel(int* value) {
  *value = kProbeValue;
}

const char* environment(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

// Records a failed call in `facts` and clears CUDA's last error, so later calls start clean.
bool failed(cudaError_t status, const std::string& call, CudaFacts& facts) {
  if (status == cudaSuccess) {
    return false;
  }
  facts.problem = classifyCudaError(status, facts.driverVersion);
  facts.call = call;
  facts.errorName = cudaGetErrorName(status);
  facts.errorText = cudaGetErrorString(status);
  cudaGetLastError();
  return true;
}

// Loads, runs and reads back the probe kernel on the current device; records what fails.
void runProbeKernel(CudaFacts& facts) {
  cudaFuncAttributes attributes{};
  int* value = nullptr;
  if (failed(cudaFuncGetAttributes(&attributes, probeKernel), "loading Cineflow's device code",
             facts) ||
      failed(cudaMalloc(&value, sizeof(int)), "cudaMalloc", facts)) {
    return;
  }
  probeKernel<<<1, 1>>>(value);
  int result = 0;
  const bool launchFailed = failed(cudaGetLastError(), "launching a test kernel", facts) ||
                            failed(cudaMemcpy(&result, value, sizeof(int), cudaMemcpyDeviceToHost),
                                   "running a test kernel", facts);
  cudaFree(value);
  if (!launchFailed && result != kProbeValue) {
    facts.problem = CudaProblem::Other;
    facts.call = "running a test kernel";
    facts.errorText = "the kernel ran but its result did not arrive";
  }
}

}  // namespace

CudaProblem classifyCudaError(cudaError_t status, int driverVersion) noexcept {
  switch (status) {
    case cudaSuccess:
      return CudaProblem::None;
    case cudaErrorInsufficientDriver:
      return driverVersion == 0 ? CudaProblem::NoDriver : CudaProblem::DriverTooOld;
    case cudaErrorSystemDriverMismatch:
      return CudaProblem::DriverMismatch;
    case cudaErrorStubLibrary:
      return CudaProblem::StubDriver;
    case cudaErrorNoDevice:
      return CudaProblem::NoDevice;
    case cudaErrorDevicesUnavailable:
      return CudaProblem::DeviceUnavailable;
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorInvalidDeviceFunction:
      return CudaProblem::NoKernelImage;
    case cudaErrorUnsupportedPtxVersion:
      return CudaProblem::PtxTooNew;
    case cudaErrorInvalidPtx:
    case cudaErrorJitCompilerNotFound:
    case cudaErrorJitCompilationDisabled:
      return CudaProblem::PtxJitFailed;
    default:
      return CudaProblem::Other;
  }
}

CudaFacts diagnoseCuda() noexcept {
  CudaFacts facts;
#ifdef __CUDA_ARCH_LIST__
  facts.builtArchitectures = {__CUDA_ARCH_LIST__};  // nvcc's list of this file's architectures
#endif
  facts.visibleDevices = environment("CUDA_VISIBLE_DEVICES");
  facts.deviceSetting = environment("CINEFLOW_CUDA_DEVICE");
  cudaRuntimeGetVersion(&facts.runtimeVersion);
  cudaDriverGetVersion(&facts.driverVersion);  // 0 when no driver is installed
  // Without a driver this fails rather than reporting zero devices.
  if (failed(cudaGetDeviceCount(&facts.deviceCount), "cudaGetDeviceCount", facts)) {
    facts.deviceCount = 0;
    return facts;
  }
  if (facts.deviceCount == 0) {
    facts.problem = CudaProblem::NoDevice;
    return facts;
  }
  facts.device = 0;
  if (!facts.deviceSetting.empty()) {
    char* end = nullptr;
    const long index = std::strtol(facts.deviceSetting.c_str(), &end, 10);
    if (*end != '\0' || index < 0 || index >= facts.deviceCount) {
      facts.problem = CudaProblem::DeviceIndex;
      facts.device = -1;
      return facts;
    }
    facts.device = static_cast<int>(index);
  }
  const auto onDevice = [&facts](const char* call) {
    std::string text = call;  // appended rather than added: GCC 12 warns falsely on "(" + string
    text += '(';
    text += std::to_string(facts.device);
    return text + ')';
  };
  cudaDeviceProp properties{};
  if (failed(cudaGetDeviceProperties(&properties, facts.device),
             onDevice("cudaGetDeviceProperties"), facts)) {
    return facts;
  }
  facts.deviceName = properties.name;
  facts.computeMajor = properties.major;
  facts.computeMinor = properties.minor;
  if (!failed(cudaSetDevice(facts.device), onDevice("cudaSetDevice"), facts) &&
      !failed(cudaFree(nullptr), "creating the CUDA context", facts)) {
    runProbeKernel(facts);
  }
  return facts;
}

ProbeResult probeDevices() noexcept {
  const CudaFacts facts = diagnoseCuda();
  ProbeResult result;
  result.deviceCount = facts.problem == CudaProblem::None ? facts.deviceCount : 0;
  result.deviceName = facts.deviceName;
  result.reason = describeCudaProblem(facts);
  result.driverVersion = facts.driverVersion;
  result.runtimeVersion = facts.runtimeVersion;
  return result;
}

}  // namespace cineflow::compute::cuda

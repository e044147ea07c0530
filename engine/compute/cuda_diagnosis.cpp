#include "compute/cuda_diagnosis.hpp"

namespace cineflow::compute {
namespace {

constexpr const char* kNativeRebuild =
    "rebuild Cineflow on this machine with -DCINEFLOW_CUDA_ARCHITECTURES=native";

std::string deviceText(const CudaFacts& facts) {
  std::string text = "device " + std::to_string(facts.device);
  if (!facts.deviceName.empty()) {
    text += " (" + facts.deviceName + ")";
  }
  return text;
}

std::string capabilityText(const CudaFacts& facts) {
  return "compute capability " + std::to_string(facts.computeMajor) + "." +
         std::to_string(facts.computeMinor) + ", sm_" + std::to_string(facts.computeMajor) +
         std::to_string(facts.computeMinor);
}

std::string driverText(const CudaFacts& facts) {
  return "the NVIDIA driver supports CUDA up to " + cudaVersionText(facts.driverVersion);
}

std::string runtimeText(const CudaFacts& facts) {
  return "CUDA " + cudaVersionText(facts.runtimeVersion);
}

std::string gist(const CudaFacts& facts) {
  switch (facts.problem) {
    case CudaProblem::None:
      return {};
    case CudaProblem::NotBuilt:
      return "this build has no CUDA support (nvcc was not found when it was configured)";
    case CudaProblem::NoDriver:
      return "no NVIDIA driver is installed (the " + runtimeText(facts) +
             " runtime found no libcuda); install a driver that supports " + runtimeText(facts) +
             " or newer";
    case CudaProblem::DriverTooOld:
      return "the NVIDIA driver is too old: " + driverText(facts) + ", this build needs " +
             runtimeText(facts) + "; install a newer driver";
    case CudaProblem::DriverMismatch:
      return "the NVIDIA driver's kernel module and its library (libcuda) are different versions; "
             "reboot after a driver update, or reinstall the driver";
    case CudaProblem::StubDriver:
      return "the CUDA toolkit's stub libcuda was loaded instead of the NVIDIA driver's; take the "
             "toolkit's stubs folder out of LD_LIBRARY_PATH, or install the driver";
    case CudaProblem::NoDevice:
      return "no CUDA device found (" + driverText(facts) + ")" +
             (facts.visibleDevices.empty()
                  ? std::string()
                  : "; CUDA_VISIBLE_DEVICES=" + facts.visibleDevices + " may hide the devices");
    case CudaProblem::DeviceIndex:
      return "CINEFLOW_CUDA_DEVICE=" + facts.deviceSetting + " is not a device index in [0, " +
             std::to_string(facts.deviceCount) + ")";
    case CudaProblem::DeviceUnavailable:
      return "CUDA " + deviceText(facts) +
             " is unavailable: its compute mode is exclusive-process and another program uses "
             "it, or prohibited (see nvidia-smi -q -d COMPUTE)";
    case CudaProblem::NoKernelImage:
      return "this build has no code for CUDA " + deviceText(facts) + ", " + capabilityText(facts) +
             ": it was built for " + architecturesText(facts.builtArchitectures) + "; " +
             kNativeRebuild;
    case CudaProblem::PtxTooNew:
      return "the NVIDIA driver cannot compile this build's PTX for CUDA " + deviceText(facts) +
             ", " + capabilityText(facts) + ": " + driverText(facts) + ", the PTX needs " +
             runtimeText(facts) + " (native code was built for " +
             architecturesText(facts.builtArchitectures) + "); install a newer driver or " +
             kNativeRebuild;
    case CudaProblem::PtxJitFailed:
      return "the NVIDIA driver could not compile this build's PTX for CUDA " + deviceText(facts) +
             ", " + capabilityText(facts) + " (" + facts.errorText + "); " + kNativeRebuild;
    case CudaProblem::Other:
      break;
  }
  std::string text = facts.call + " failed";
  if (facts.device >= 0) {
    text += " on " + deviceText(facts);
  }
  return text + ": " + facts.errorText;
}

}  // namespace

std::string cudaVersionText(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

std::string architecturesText(const std::vector<int>& architectures) {
  std::string text;
  for (const int architecture : architectures) {
    text += (text.empty() ? "sm_" : ", sm_") + std::to_string(architecture / 10);
  }
  return text.empty() ? std::string("no architecture") : text;
}

std::string describeCudaProblem(const CudaFacts& facts) {
  std::string text = gist(facts);
  if (!text.empty() && !facts.errorName.empty()) {
    text += " [" + facts.call + ": " + facts.errorName + "]";
  }
  return text;
}

}  // namespace cineflow::compute

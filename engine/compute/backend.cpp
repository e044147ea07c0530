#include "compute/backend.hpp"

#include <cstdlib>
#include <stdexcept>
#include <string>

#include "compute/cpu/cpu_backend.hpp"
#if CINEFLOW_HAVE_CUDA
#include "compute/cuda/cuda_backend.hpp"
#include "compute/cuda/cuda_probe.hpp"
#endif

namespace cineflow::compute {

const char* toString(BackendKind kind) noexcept {
  switch (kind) {
    case BackendKind::Cpu:
      return "cpu";
    case BackendKind::Cuda:
      return "cuda";
  }
  return "unknown";
}

const char* toString(MemorySpace space) noexcept {
  switch (space) {
    case MemorySpace::Device:
      return "device";
    case MemorySpace::Pinned:
      return "pinned";
    case MemorySpace::Host:
      return "host";
  }
  return "unknown";
}

BackendRequest parseBackendRequest(const std::string& text) {
  if (text == "auto")
    return BackendRequest::Auto;
  if (text == "cpu")
    return BackendRequest::Cpu;
  if (text == "cuda")
    return BackendRequest::Cuda;
  throw std::invalid_argument("unknown backend '" + text + "': expected auto, cpu or cuda");
}

std::unique_ptr<Backend> createBackend(BackendRequest request, std::string* message) {
  if (message != nullptr) {
    message->clear();
  }
  if (request == BackendRequest::Cpu) {
    return std::make_unique<cpu::CpuBackend>();
  }
#if CINEFLOW_HAVE_CUDA
  const cuda::ProbeResult probe = cuda::probeDevices();
  std::string reason = "no usable CUDA device (" + probe.reason + ")";
  if (probe.deviceCount > 0) {
    int device = 0;
    if (const char* text = std::getenv("CINEFLOW_CUDA_DEVICE")) {
      char* end = nullptr;
      const long index = std::strtol(text, &end, 10);
      device = (end != text && *end == '\0' && index >= 0 && index < probe.deviceCount)
                   ? static_cast<int>(index)
                   : -1;
    }
    if (device < 0) {
      reason = std::string("CINEFLOW_CUDA_DEVICE=") + std::getenv("CINEFLOW_CUDA_DEVICE") +
               " is not a device index in [0, " + std::to_string(probe.deviceCount) + ")";
    } else {
      try {
        return std::make_unique<cuda::CudaBackend>(device);
      } catch (const std::exception& e) {
        reason = std::string("the CUDA device cannot be used: ") + e.what();
      }
    }
  }
#else
  const std::string reason =
      "this build has no CUDA support (nvcc was not found when it was configured)";
#endif
  if (request == BackendRequest::Cuda) {
    throw std::runtime_error("the CUDA backend is not available: " + reason);
  }
  if (message != nullptr) {
    *message = reason + "; using the CPU backend";
  }
  return std::make_unique<cpu::CpuBackend>();
}

}  // namespace cineflow::compute

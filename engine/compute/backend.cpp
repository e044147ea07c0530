#include "compute/backend.hpp"

#include <stdexcept>
#include <string>

#include "compute/cpu/cpu_backend.hpp"
#include "compute/cuda_diagnosis.hpp"
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

void* Backend::allocate(MemorySpace space, std::size_t bytes) {
  if (space != MemorySpace::Device) {
    return allocateMemory(space, bytes);
  }
  budget_.reserve(bytes, kind() == BackendKind::Cuda ? "GPU" : "the CPU backend's device");
  void* ptr = nullptr;
  try {
    ptr = allocateMemory(space, bytes);
  } catch (...) {
    budget_.cancel(bytes);
    throw;
  }
  budget_.commit(ptr, bytes);
  return ptr;
}

void Backend::deallocate(MemorySpace space, void* ptr) noexcept {
  if (space == MemorySpace::Device) {
    budget_.release(ptr);
  }
  deallocateMemory(space, ptr);
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
  const CudaFacts facts = cuda::diagnoseCuda();
  std::string reason = describeCudaProblem(facts);
  if (facts.problem == CudaProblem::None) {
    try {
      return std::make_unique<cuda::CudaBackend>(facts.device);
    } catch (const std::exception& e) {
      reason = std::string("the CUDA device cannot be used: ") + e.what();
    }
  }
#else
  CudaFacts facts;
  facts.problem = CudaProblem::NotBuilt;
  const std::string reason = describeCudaProblem(facts);
#endif
  if (request == BackendRequest::Cuda) {
    throw std::runtime_error("CUDA unavailable: " + reason);
  }
  if (message != nullptr) {
    *message = "CUDA unavailable: " + reason;
  }
  return std::make_unique<cpu::CpuBackend>();
}

}  // namespace cineflow::compute

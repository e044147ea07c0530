#include "compute/backend.hpp"

#include <stdexcept>
#include <string>

#include "base/enum_names.hpp"
#include "compute/cpu/cpu_backend.hpp"
#include "compute/cuda_diagnosis.hpp"
#if CINEFLOW_HAVE_CUDA
#include "compute/cuda/cuda_backend.hpp"
#include "compute/cuda/cuda_probe.hpp"
#endif

namespace cineflow::compute {

const char* toString(BackendKind kind) noexcept {
  static constexpr base::Named<BackendKind> kNames[] = {{BackendKind::Cpu, "cpu"},
                                                        {BackendKind::Cuda, "cuda"}};
  return base::nameIn(kNames, kind);
}

const char* toString(MemorySpace space) noexcept {
  static constexpr base::Named<MemorySpace> kNames[] = {{MemorySpace::Device, "device"},
                                                        {MemorySpace::Pinned, "pinned"},
                                                        {MemorySpace::Host, "host"}};
  return base::nameIn(kNames, space);
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
  static constexpr base::Named<BackendRequest> kNames[] = {
      {BackendRequest::Auto, "auto"}, {BackendRequest::Cpu, "cpu"}, {BackendRequest::Cuda, "cuda"}};
  return base::parseIn(kNames, text, "backend");
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

#pragma once
// The variants of a stage that has a CPU and a CUDA kernel (DasBeamformer, IqBeamformer,
// EnvelopeDetector): the
// configured kernel's names, selection and current choice (tune/tuning.hpp). `cuda` is null on
// the CPU backend and in builds without CUDA.

#include <cstddef>
#include <string>
#include <vector>

#include "process/stage_checks.hpp"

namespace cineflow::process {

template <class CpuKernel, class CudaKernel>
std::vector<std::string> kernelVariants(const CudaKernel* cuda) {
  if (cuda != nullptr) {
    return cuda->variantNames();
  }
  return CpuKernel::variantNames();
}

template <class CpuKernel, class CudaKernel>
void selectKernelVariant(CpuKernel* cpu, CudaKernel* cuda, std::size_t index, const char* stage) {
  if (cuda != nullptr) {
    cuda->selectVariant(index);
    return;
  }
  if (cpu == nullptr) {
    detail::throwNotConfigured(stage);
  }
  cpu->selectVariant(index);
}

template <class CpuKernel, class CudaKernel>
std::size_t kernelVariant(const CpuKernel* cpu, const CudaKernel* cuda) {
  return cuda != nullptr ? cuda->variant() : cpu != nullptr ? cpu->variant() : 0;
}

// What stands for the CUDA kernel in builds without CUDA (always null).
struct NoCudaKernel {
  static std::vector<std::string> variantNames() { return {}; }
  void selectVariant(std::size_t /*index*/) {}
  std::size_t variant() const { return 0; }
};

// A stage's CUDA kernel member as the functions above take it: its pointer, or a null
// NoCudaKernel in builds without CUDA (where the member does not exist).
#if CINEFLOW_HAVE_CUDA
#define CINEFLOW_CUDA_KERNEL_OF(member) (member).get()
#else
#define CINEFLOW_CUDA_KERNEL_OF(member) static_cast<::cineflow::process::NoCudaKernel*>(nullptr)
#endif

}  // namespace cineflow::process

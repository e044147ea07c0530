#pragma once
// The one twin mechanism (docs/development.md, Execution model and backends): a stage has a CPU
// kernel and a CUDA kernel behind one contract, and which one runs follows the backend it is
// configured on. Whether the CUDA twins exist is decided once, at configure time
// (CINEFLOW_HAVE_CUDA, kCudaBuilt below). Their declarations (NAME/cuda/*_kernels.hpp, plain C++)
// are visible in every build; their definitions (*.cu) are compiled only with CUDA. Code that names
// a CUDA twin does so inside `if constexpr (compute::kCudaBuilt)`, whose discarded branch needs no
// definition, so no source file carries #if CINEFLOW_HAVE_CUDA for a stage. createBackend() never
// makes a CUDA backend in a build without CUDA.

#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "compute/backend.hpp"

namespace cineflow::compute {

inline constexpr bool kCudaBuilt = CINEFLOW_HAVE_CUDA != 0;

// True when work for `kind` goes to a CUDA twin (never in a build without CUDA).
constexpr bool runsOnCuda(BackendKind kind) {
  return kCudaBuilt && kind == BackendKind::Cuda;
}

// For stages whose twins are free functions: returns cuda() when work for `kind` goes to a CUDA
// twin, else cpu(). Without CUDA cuda() is never called, so its body needs no CUDA definition.
template <class OnCpu, class OnCuda>
decltype(auto) onTwin(BackendKind kind, OnCpu&& cpu, OnCuda&& cuda) {
  if constexpr (kCudaBuilt) {
    if (kind == BackendKind::Cuda) {
      return std::forward<OnCuda>(cuda)();
    }
  }
  return std::forward<OnCpu>(cpu)();
}

// Owns a stage's kernel object on the backend it was made for: a `Cpu` or a `Cuda`. Variants
// (tune/tuning.hpp) go to whichever is made.
template <class Cpu, class Cuda>
class Twin {
 public:
  // Makes the kernel for `kind`: makeCuda() on CUDA, else makeCpu(), each returning its kernel's
  // std::unique_ptr. The previous kernel goes only once the new one is made (a throw leaves it in
  // place). Without CUDA makeCuda is never called, so its body needs no CUDA definition.
  template <class MakeCpu, class MakeCuda>
  void make(BackendKind kind, MakeCpu&& makeCpu, MakeCuda&& makeCuda) {
    if (runsOnCuda(kind)) {
      if constexpr (kCudaBuilt) {
        cuda_ = std::forward<MakeCuda>(makeCuda)();
        cpu_.reset();
      }
      return;
    }
    cpu_ = std::forward<MakeCpu>(makeCpu)();
    if constexpr (kCudaBuilt) {
      cuda_.reset();
    }
  }

  bool made() const {
    if constexpr (kCudaBuilt) {
      if (cuda_) {
        return true;
      }
    }
    return cpu_ != nullptr;
  }

  // Calls `f` with the kernel made last (a const Cpu& or a const Cuda&). Throws std::logic_error
  // "<stage>: not configured" when none is made.
  template <class F>
  decltype(auto) visit(const char* stage, F&& f) const {
    if constexpr (kCudaBuilt) {
      if (cuda_) {
        return std::forward<F>(f)(static_cast<const Cuda&>(*cuda_));
      }
    }
    return std::forward<F>(f)(static_cast<const Cpu&>(requireCpu(stage)));
  }
  template <class F>
  decltype(auto) visitMutable(const char* stage, F&& f) {
    if constexpr (kCudaBuilt) {
      if (cuda_) {
        return std::forward<F>(f)(*cuda_);
      }
    }
    return std::forward<F>(f)(requireCpu(stage));
  }

  // The CPU kernel when that is the one made, else null.
  Cpu* cpuKernel() const { return cpu_.get(); }

  // The made kernel's variant names; before anything is made, the CPU kernel's.
  std::vector<std::string> variants() const {
    if constexpr (kCudaBuilt) {
      if (cuda_) {
        return cuda_->variantNames();
      }
    }
    return Cpu::variantNames();
  }
  void selectVariant(const char* stage, std::size_t index) {
    visitMutable(stage, [index](auto& kernel) { kernel.selectVariant(index); });
  }
  std::size_t variant() const {
    return made() ? visit("", [](const auto& kernel) { return kernel.variant(); }) : 0;
  }

 private:
  Cpu& requireCpu(const char* stage) const {
    if (!cpu_) {
      throw std::logic_error(std::string(stage) + ": not configured");
    }
    return *cpu_;
  }

  std::unique_ptr<Cpu> cpu_;
  // Without CUDA the CUDA kernel is only declared: no pointer to it is kept (nor destroyed).
  std::conditional_t<kCudaBuilt, std::unique_ptr<Cuda>, std::nullptr_t> cuda_{};
};

}  // namespace cineflow::compute

#pragma once
// RAII owner of a batched 1-D cuFFT plan whose work area comes from the backend (house style
// rule 2, docs/development.md): the plan is made without cuFFT's own allocation
// (cufftSetAutoAllocation 0), and its work area is a DeviceBuffer, so the device memory budget
// counts it and a shortage is the budget's clear error, not a cuFFT status. The destructor destroys
// the plan, then the area frees. Held by pointer where a header must not include cuFFT (the
// kernels' headers are plain C++).

#include <cufft.h>

#include <cstddef>

#include "compute/backend.hpp"
#include "compute/buffer.hpp"

namespace cineflow::compute::cuda {

// The layout of `batch` transforms of `size` points (cufftMakePlanMany's advanced layout with
// the same embedding on both sides): element i of transform b at b * distance + i * stride.
struct FftLayout {
  int size = 0;
  int batch = 1;
  int stride = 1;
  int distance = 0;  // 0: `size` (contiguous transforms)
};

class CufftPlan {
 public:
  // Throws CudaError naming `what` when cuFFT refuses the plan, std::runtime_error from the
  // backend when the work area does not fit the budget.
  CufftPlan(Backend& backend, const char* what, const FftLayout& layout, cufftType type);
  ~CufftPlan();
  CufftPlan(const CufftPlan&) = delete;
  CufftPlan& operator=(const CufftPlan&) = delete;

  cufftHandle get() const { return plan_; }

 private:
  cufftHandle plan_ = 0;
  DeviceBuffer<std::byte> work_;
};

// Throws CudaError("<what>: cuFFT error <status>") unless `status` is success.
void checkCufft(cufftResult status, const char* what);

}  // namespace cineflow::compute::cuda

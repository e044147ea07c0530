#include "compute/cuda/cufft_plan.hpp"

#include <iostream>
#include <string>
#include <utility>

#include "compute/cuda/cuda_check.hpp"

namespace cineflow::compute::cuda {

void checkCufft(cufftResult status, const char* what) {
  if (status != CUFFT_SUCCESS) {
    throw CudaError(std::string(what) + ": cuFFT error " +
                    std::to_string(static_cast<int>(status)));
  }
}

CufftPlan::CufftPlan(Backend& backend, const char* what, const FftLayout& layout, cufftType type) {
  checkCufft(cufftCreate(&plan_), what);
  made_ = true;
  try {
    checkCufft(cufftSetAutoAllocation(plan_, 0), what);
    int n[1] = {layout.size};
    int embed[1] = {layout.size};
    const int distance = layout.distance != 0 ? layout.distance : layout.size;
    std::size_t workBytes = 0;
    checkCufft(cufftMakePlanMany(plan_, 1, n, embed, layout.stride, distance, embed, layout.stride,
                                 distance, type, layout.batch, &workBytes),
               what);
    work_ = DeviceBuffer<std::byte>(backend, workBytes);
    if (workBytes != 0) {
      checkCufft(cufftSetWorkArea(plan_, work_.data()), what);
    }
  } catch (...) {
    destroy();
    throw;
  }
}

CufftPlan::~CufftPlan() {
  destroy();
}

CufftPlan::CufftPlan(CufftPlan&& other) noexcept
    : plan_(std::exchange(other.plan_, 0)),
      made_(std::exchange(other.made_, false)),
      work_(std::move(other.work_)) {}

CufftPlan& CufftPlan::operator=(CufftPlan&& other) noexcept {
  if (this != &other) {
    destroy();
    plan_ = std::exchange(other.plan_, 0);
    made_ = std::exchange(other.made_, false);
    work_ = std::move(other.work_);
  }
  return *this;
}

void CufftPlan::destroy() noexcept {
  if (made_ && cufftDestroy(plan_) != CUFFT_SUCCESS) {
    std::cerr << "cineflow: cufftDestroy failed\n";
  }
  made_ = false;
  plan_ = 0;
}

}  // namespace cineflow::compute::cuda

#include "compute/cuda/cufft_plan.hpp"

#include <iostream>
#include <string>

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
    cufftDestroy(plan_);  // the destructor does not run for a constructor that threw
    throw;
  }
}

CufftPlan::~CufftPlan() {
  if (cufftDestroy(plan_) != CUFFT_SUCCESS) {
    std::cerr << "cineflow: cufftDestroy failed\n";
  }
}

}  // namespace cineflow::compute::cuda

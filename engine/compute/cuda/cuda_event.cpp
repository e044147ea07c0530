#include "compute/cuda/cuda_event.hpp"

#include <iostream>

#include "compute/cuda/cuda_check.hpp"

namespace cineflow::compute::cuda {

CudaEvent::CudaEvent() {
  check(cudaEventCreate(&event_), "cudaEventCreate");
}

CudaEvent::~CudaEvent() {
  const cudaError_t status = cudaEventDestroy(event_);
  if (status != cudaSuccess) {
    std::cerr << "cineflow: cudaEventDestroy: " << cudaGetErrorString(status) << '\n';
  }
}

bool CudaEvent::query() const {
  const cudaError_t status = cudaEventQuery(event_);
  if (status == cudaErrorNotReady) {
    return false;
  }
  check(status, "cudaEventQuery");
  return true;
}

void CudaEvent::synchronize() const {
  check(cudaEventSynchronize(event_), "cudaEventSynchronize");
}

double CudaEvent::elapsedMsSince(const Event& start) const {
  float ms = 0;
  check(cudaEventElapsedTime(&ms, asCudaEvent(start).get(), event_), "cudaEventElapsedTime");
  return ms;
}

CudaEvent& asCudaEvent(const Event& event) {
  auto* cudaEvent = dynamic_cast<const CudaEvent*>(&event);
  if (cudaEvent == nullptr) {
    throw std::invalid_argument("CUDA stream given an event of another backend");
  }
  return const_cast<CudaEvent&>(*cudaEvent);
}

}  // namespace cineflow::compute::cuda

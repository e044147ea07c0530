#include "compute/cuda/cuda_event.hpp"

#include <iostream>
#include <stdexcept>

#include "compute/cuda/cuda_check.hpp"

namespace cineflow::compute::cuda {

CudaEvent::CudaEvent(bool timed) : Event(BackendKind::Cuda), timed_(timed) {
  check(cudaEventCreateWithFlags(&event_, timed ? cudaEventDefault : cudaEventDisableTiming),
        "cudaEventCreate");
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
  const CudaEvent& begin = asCudaEvent(start);
  if (!timed_ || !begin.timed_) {
    throw std::logic_error("elapsedMsSince: an event made for ordering only has no time");
  }
  float ms = 0;
  check(cudaEventElapsedTime(&ms, begin.get(), event_), "cudaEventElapsedTime");
  return ms;
}

void throwForeignEvent() {
  throw std::invalid_argument("CUDA stream given an event of another backend");
}

}  // namespace cineflow::compute::cuda

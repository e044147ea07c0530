#pragma once
// RAII owner of a cudaEvent_t: timed (stage times come from the device clock) or, for ordering
// and waiting only, without timing (cudaEventDisableTiming, cheaper to record and wait on).

#include <cuda_runtime.h>

#include "compute/backend.hpp"

namespace cineflow::compute::cuda {

[[noreturn]] void throwForeignEvent();

class CudaEvent final : public Event {
 public:
  explicit CudaEvent(bool timed);
  ~CudaEvent() override;
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;

  bool query() const override;
  void synchronize() const override;
  double elapsedMsSince(const Event& start) const override;
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
  bool timed_;
};

// `event` as the CUDA event it is (its kind() checked, no dynamic cast); std::invalid_argument
// for another backend's.
inline CudaEvent& asCudaEvent(const Event& event) {
  if (event.kind() != BackendKind::Cuda) {
    throwForeignEvent();
  }
  return const_cast<CudaEvent&>(static_cast<const CudaEvent&>(event));
}

}  // namespace cineflow::compute::cuda

#pragma once
// RAII owner of a cudaEvent_t (timing enabled, so stage times come from the device clock).

#include <cuda_runtime.h>

#include "compute/backend.hpp"

namespace cineflow::compute::cuda {

class CudaEvent final : public Event {
 public:
  CudaEvent();
  ~CudaEvent() override;
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;

  bool query() const override;
  void synchronize() const override;
  double elapsedMsSince(const Event& start) const override;
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

CudaEvent& asCudaEvent(const Event& event);

}  // namespace cineflow::compute::cuda

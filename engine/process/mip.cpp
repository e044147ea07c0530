#include "process/mip.hpp"

#include <stdexcept>
#include <string>

#include "process/cpu/mip.hpp"
#include "process/stage_checks.hpp"
#if CINEFLOW_HAVE_CUDA
#include "process/cuda/stage_kernels.hpp"
#endif

namespace cineflow::process {
namespace {
constexpr const char* kStage = "MIP";
}

void MipProjector::configure(compute::Backend& backend, const VolumeShape& shape) {
  if (shape.ny <= 0 || shape.nz <= 0 || shape.nx <= 0) {
    throw std::invalid_argument("MIP: volume shape " + std::to_string(shape.ny) + " x " +
                                std::to_string(shape.nz) + " x " + std::to_string(shape.nx) +
                                " (y, z, x) must have at least one voxel");
  }
  kind_ = backend.kind();
  switch (kind_) {
    case compute::BackendKind::Cpu:
      scratch_ = {};
      break;
    case compute::BackendKind::Cuda:
#if CINEFLOW_HAVE_CUDA
      plan_ = cuda::planMips(shape.ny, shape.nz, shape.nx);
      scratch_ = compute::DeviceBuffer<float>(backend, plan_.scratchFloats);
      cuda::prepareMipScratch(plan_, scratch_.data());
      launches_ = 0;
      break;
#else
      detail::throwNoCudaTwin(kStage);
#endif
  }
  shape_ = shape;
}

void MipProjector::enqueue(compute::Stream& stream, compute::DeviceSpan<const float> volume,
                           compute::DeviceSpan<float> alongY, compute::DeviceSpan<float> alongZ,
                           compute::DeviceSpan<float> alongX) const {
  if (shape_.voxels() == 0) {
    detail::throwNotConfigured(kStage);
  }
  detail::requireSize(kStage, "volume", volume.size(), shape_.voxels());
  detail::requireSize(kStage, "projection along y", alongY.size(), shape_.alongY());
  detail::requireSize(kStage, "projection along z", alongZ.size(), shape_.alongZ());
  detail::requireSize(kStage, "projection along x", alongX.size(), shape_.alongX());
  for (const void* data :
       {static_cast<const void*>(volume.data()), static_cast<const void*>(alongY.data()),
        static_cast<const void*>(alongZ.data()), static_cast<const void*>(alongX.data())}) {
    detail::requireData(kStage, "a buffer", data);
  }
  switch (kind_) {
    case compute::BackendKind::Cpu:
      cpu::enqueueMips(stream, volume.data(), shape_.ny, shape_.nz, shape_.nx, alongY.data(),
                       alongZ.data(), alongX.data());
      return;
    case compute::BackendKind::Cuda:
#if CINEFLOW_HAVE_CUDA
      launches_ = launches_ == ~0u ? 1u : launches_ + 1u;  // never 0, which the scratch starts as
      cuda::enqueueMips(stream, plan_, launches_, volume.data(), shape_.ny, shape_.nz, shape_.nx,
                        scratch_.data(), alongY.data(), alongZ.data(), alongX.data());
      return;
#else
      detail::throwNoCudaTwin(kStage);
#endif
  }
}

}  // namespace cineflow::process

#include "process/log_compress.hpp"

#include <stdexcept>
#include <string>

#include "process/cpu/log_compress.hpp"
#include "process/stage_checks.hpp"
#if CINEFLOW_HAVE_CUDA
#include "process/cuda/stage_kernels.hpp"
#endif

namespace cineflow::process {
namespace {
constexpr const char* kStage = "log compression";
}

void LogCompressor::configure(compute::Backend& backend, const ImageGeometry& geometry) {
  if (geometry.nx <= 0 || geometry.nz <= 0) {
    throw std::invalid_argument("log compression: image geometry " + std::to_string(geometry.nz) +
                                " x " + std::to_string(geometry.nx) +
                                " must have at least one pixel");
  }
#if !CINEFLOW_HAVE_CUDA
  if (backend.kind() == compute::BackendKind::Cuda) {
    detail::throwNoCudaTwin(kStage);
  }
#endif
  kind_ = backend.kind();
  values_ = geometry.pixels();
}

void LogCompressor::enqueue(compute::Stream& stream, compute::DeviceSpan<const float> in,
                            compute::DeviceSpan<float> out) const {
  if (values_ == 0) {
    detail::throwNotConfigured(kStage);
  }
  detail::requireSize(kStage, "envelope input", in.size(), values_);
  detail::requireSize(kStage, "dB output", out.size(), values_);
  detail::requireData(kStage, "envelope input", in.data());
  detail::requireData(kStage, "dB output", out.data());
  switch (kind_) {
    case compute::BackendKind::Cpu:
      cpu::enqueueLogCompress(stream, in.data(), out.data(), values_);
      return;
    case compute::BackendKind::Cuda:
#if CINEFLOW_HAVE_CUDA
      cuda::enqueueLogCompress(stream, in.data(), out.data(), values_, kLogCompressFloor);
      return;
#else
      detail::throwNoCudaTwin(kStage);
#endif
  }
}

}  // namespace cineflow::process

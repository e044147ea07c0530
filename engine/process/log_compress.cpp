#include "process/log_compress.hpp"

#include <stdexcept>
#include <string>

#include "compute/twin.hpp"
#include "process/cpu/log_compress.hpp"
#include "process/cuda/stage_kernels.hpp"
#include "process/stage_checks.hpp"

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
  compute::onTwin(
      kind_, [&] { cpu::enqueueLogCompress(stream, in.data(), out.data(), values_); },
      [&] { cuda::enqueueLogCompress(stream, in.data(), out.data(), values_, kLogCompressFloor); });
}

}  // namespace cineflow::process

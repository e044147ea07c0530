#include "ultrasound/envelope.hpp"

#include <stdexcept>
#include <string>

#include "process/stage_checks.hpp"
#include "ultrasound/cpu/envelope.hpp"
#include "ultrasound/kernel_variants.hpp"
#if CINEFLOW_HAVE_CUDA
#include "ultrasound/cuda/ultrasound_kernels.hpp"
#endif

namespace cineflow::process {
namespace {
constexpr const char* kStage = "envelope";
}

EnvelopeDetector::EnvelopeDetector() = default;
EnvelopeDetector::~EnvelopeDetector() = default;
EnvelopeDetector::EnvelopeDetector(EnvelopeDetector&&) noexcept = default;
EnvelopeDetector& EnvelopeDetector::operator=(EnvelopeDetector&&) noexcept = default;

void EnvelopeDetector::configure(compute::Backend& backend, const ImageGeometry& geometry) {
  if (geometry.nx <= 0 || geometry.nz <= 0) {
    throw std::invalid_argument("envelope: image geometry " + std::to_string(geometry.nz) + " x " +
                                std::to_string(geometry.nx) + " must have at least one pixel");
  }
  if (backend.kind() == compute::BackendKind::Cuda) {
#if CINEFLOW_HAVE_CUDA
    cuda_ = std::make_unique<cuda::EnvelopeKernel>(backend, static_cast<std::size_t>(geometry.nz),
                                                   static_cast<std::size_t>(geometry.nx));
    cpu_.reset();
#else
    detail::throwNoCudaTwin(kStage);
#endif
  } else {
    cpu_ = std::make_unique<cpu::EnvelopeKernel>(static_cast<std::size_t>(geometry.nz),
                                                 static_cast<std::size_t>(geometry.nx));
#if CINEFLOW_HAVE_CUDA
    cuda_.reset();
#endif
  }
  kind_ = backend.kind();
  geometry_ = geometry;
}

void EnvelopeDetector::enqueue(compute::Stream& stream, compute::DeviceSpan<const float> rf,
                               compute::DeviceSpan<float> envelope) const {
  if (geometry_.pixels() == 0) {
    detail::throwNotConfigured(kStage);
  }
  detail::requireSize(kStage, "rf input", rf.size(), geometry_.pixels());
  detail::requireSize(kStage, "envelope output", envelope.size(), geometry_.pixels());
  detail::requireData(kStage, "rf input", rf.data());
  detail::requireData(kStage, "envelope output", envelope.data());
  switch (kind_) {
    case compute::BackendKind::Cpu:
      cpu_->enqueue(stream, rf.data(), envelope.data());
      return;
    case compute::BackendKind::Cuda:
#if CINEFLOW_HAVE_CUDA
      cuda_->enqueue(stream, rf.data(), envelope.data());
      return;
#else
      detail::throwNoCudaTwin(kStage);
#endif
  }
}

std::vector<std::string> EnvelopeDetector::variants() const {
  return kernelVariants<cpu::EnvelopeKernel>(CINEFLOW_CUDA_KERNEL_OF(cuda_));
}

void EnvelopeDetector::selectVariant(std::size_t index) {
  selectKernelVariant(cpu_.get(), CINEFLOW_CUDA_KERNEL_OF(cuda_), index, kStage);
}

std::size_t EnvelopeDetector::variant() const {
  return kernelVariant(static_cast<const cpu::EnvelopeKernel*>(cpu_.get()),
                       CINEFLOW_CUDA_KERNEL_OF(cuda_));
}

}  // namespace cineflow::process

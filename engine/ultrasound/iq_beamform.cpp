#include "ultrasound/iq_beamform.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>

#include "process/stage_checks.hpp"
#include "ultrasound/cpu/iq_beamform.hpp"
#include "ultrasound/kernel_variants.hpp"
#if CINEFLOW_HAVE_CUDA
#include "ultrasound/cuda/ultrasound_kernels.hpp"
#endif

namespace cineflow::process {
namespace {
constexpr const char* kStage = "beamform (I/Q)";
}

IqBeamformer::IqBeamformer() = default;
IqBeamformer::~IqBeamformer() = default;
IqBeamformer::IqBeamformer(IqBeamformer&&) noexcept = default;
IqBeamformer& IqBeamformer::operator=(IqBeamformer&&) noexcept = default;

void IqBeamformer::configure(compute::Backend& backend, const acquire::AcquisitionParams& acq,
                             const ImagingParams& imaging, std::size_t iqSamples) {
  acq.validate();
  imaging.validate(acq);
  imaging.validateIq(acq);  // also when a caller configures this stage outside I/Q mode
  const auto decimation = static_cast<std::size_t>(imaging.iqDecimation);
  const std::size_t expected =
      (static_cast<std::size_t>(acq.samples) + decimation - 1) / decimation;
  if (iqSamples != expected) {
    throw std::invalid_argument("beamform (I/Q): " + std::to_string(iqSamples) +
                                " samples per trace, expected ceil(" + std::to_string(acq.samples) +
                                " / " + std::to_string(decimation) +
                                ") = " + std::to_string(expected));
  }
  if (backend.kind() == compute::BackendKind::Cuda) {
#if CINEFLOW_HAVE_CUDA
    cuda_ = std::make_unique<cuda::IqDasKernel>(acq, imaging, iqSamples);
    cpu_.reset();
#else
    detail::throwNoCudaTwin(kStage);
#endif
  } else {
    cpu_ = std::make_unique<cpu::IqDasKernel>(acq, imaging, iqSamples);
#if CINEFLOW_HAVE_CUDA
    cuda_.reset();
#endif
  }
  kind_ = backend.kind();
  geometry_ = imaging.geometry();
  iqFloats_ = acq.samplesPerFrame() / static_cast<std::size_t>(acq.samples) * iqSamples * 2;
}

void IqBeamformer::enqueue(compute::Stream& stream, compute::DeviceSpan<const float> iq,
                           compute::DeviceSpan<float> envelope,
                           compute::DeviceSpan<float> beamformed) const {
  if (iqFloats_ == 0) {
    detail::throwNotConfigured(kStage);
  }
  detail::requireSize(kStage, "I/Q input (floats)", iq.size(), iqFloats_);
  detail::requireSize(kStage, "envelope output", envelope.size(), geometry_.pixels());
  detail::requireData(kStage, "I/Q input", iq.data());
  detail::requireData(kStage, "envelope output", envelope.data());
  if (beamformed.size() != 0) {
    detail::requireSize(kStage, "complex output (floats)", beamformed.size(),
                        2 * geometry_.pixels());
  }
  if (reinterpret_cast<std::uintptr_t>(iq.data()) % (2 * sizeof(float)) != 0) {
    throw std::invalid_argument("beamform (I/Q): the I/Q input must be 8-byte aligned (complex)");
  }
  switch (kind_) {
    case compute::BackendKind::Cpu:
      cpu_->enqueue(stream, iq.data(), envelope.data(), beamformed.data());
      return;
    case compute::BackendKind::Cuda:
#if CINEFLOW_HAVE_CUDA
      cuda_->enqueue(stream, iq.data(), envelope.data(), beamformed.data());
      return;
#else
      detail::throwNoCudaTwin(kStage);
#endif
  }
}

std::vector<std::string> IqBeamformer::variants() const {
  return kernelVariants<cpu::IqDasKernel>(CINEFLOW_CUDA_KERNEL_OF(cuda_));
}

void IqBeamformer::selectVariant(std::size_t index) {
  selectKernelVariant(cpu_.get(), CINEFLOW_CUDA_KERNEL_OF(cuda_), index, kStage);
}

std::size_t IqBeamformer::variant() const {
  return kernelVariant(static_cast<const cpu::IqDasKernel*>(cpu_.get()),
                       CINEFLOW_CUDA_KERNEL_OF(cuda_));
}

}  // namespace cineflow::process

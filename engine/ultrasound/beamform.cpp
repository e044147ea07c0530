#include "ultrasound/beamform.hpp"

#include <stdexcept>
#include <string>

#include "process/stage_checks.hpp"
#include "ultrasound/cpu/beamform.hpp"
#include "ultrasound/kernel_variants.hpp"
#if CINEFLOW_HAVE_CUDA
#include "ultrasound/cuda/ultrasound_kernels.hpp"
#endif

namespace cineflow::process {
namespace {
constexpr const char* kStage = "beamform";
}

DasBeamformer::DasBeamformer() = default;
DasBeamformer::~DasBeamformer() = default;
DasBeamformer::DasBeamformer(DasBeamformer&&) noexcept = default;
DasBeamformer& DasBeamformer::operator=(DasBeamformer&&) noexcept = default;

void DasBeamformer::configure(compute::Backend& backend, const acquire::AcquisitionParams& acq,
                              const ImagingParams& imaging, double sampleRateHz,
                              std::size_t samples) {
  acq.validate();
  imaging.validate(acq);
  if (!(sampleRateHz > 0) || samples < static_cast<std::size_t>(acq.samples)) {
    throw std::invalid_argument("beamform: traces of " + std::to_string(samples) +
                                " samples cannot hold the " + std::to_string(acq.samples) +
                                " recorded ones");
  }
  if (samples < 2) {
    throw std::invalid_argument("beamform: needs at least 2 samples per element to interpolate");
  }
  if (backend.kind() == compute::BackendKind::Cuda) {
#if CINEFLOW_HAVE_CUDA
    cuda_ = std::make_unique<cuda::DasKernel>(backend, acq, imaging, sampleRateHz, samples);
    cpu_.reset();
#else
    detail::throwNoCudaTwin(kStage);
#endif
  } else {
    cpu_ = std::make_unique<cpu::DasKernel>(acq, imaging, sampleRateHz, samples);
#if CINEFLOW_HAVE_CUDA
    cuda_.reset();
#endif
  }
  kind_ = backend.kind();
  geometry_ = imaging.geometry();
  rfValues_ = static_cast<std::size_t>(acq.transmits()) * static_cast<std::size_t>(acq.elements()) *
              samples;
}

void DasBeamformer::enqueue(compute::Stream& stream, compute::DeviceSpan<const float> rf,
                            compute::DeviceSpan<float> image) const {
  if (rfValues_ == 0) {
    detail::throwNotConfigured(kStage);
  }
  detail::requireSize(kStage, "rf input", rf.size(), rfValues_);
  detail::requireSize(kStage, "image output", image.size(), geometry_.pixels());
  detail::requireData(kStage, "rf input", rf.data());
  detail::requireData(kStage, "image output", image.data());
  switch (kind_) {
    case compute::BackendKind::Cpu:
      cpu_->enqueue(stream, rf.data(), image.data());
      return;
    case compute::BackendKind::Cuda:
#if CINEFLOW_HAVE_CUDA
      cuda_->enqueue(stream, rf.data(), image.data());
      return;
#else
      detail::throwNoCudaTwin(kStage);
#endif
  }
}

std::vector<std::string> DasBeamformer::variants() const {
  return kernelVariants<cpu::DasKernel>(CINEFLOW_CUDA_KERNEL_OF(cuda_));
}

void DasBeamformer::selectVariant(std::size_t index) {
  selectKernelVariant(cpu_.get(), CINEFLOW_CUDA_KERNEL_OF(cuda_), index, kStage);
}

std::size_t DasBeamformer::variant() const {
  return kernelVariant(static_cast<const cpu::DasKernel*>(cpu_.get()),
                       CINEFLOW_CUDA_KERNEL_OF(cuda_));
}

}  // namespace cineflow::process

#include "ultrasound/beamform.hpp"

#include <stdexcept>
#include <string>

#include "process/stage_checks.hpp"
#include "ultrasound/cpu/beamform.hpp"
#include "ultrasound/cuda/ultrasound_kernels.hpp"

namespace cineflow::ultrasound {
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
  kernel_.make(
      backend.kind(),
      [&] { return std::make_unique<cpu::DasKernel>(acq, imaging, sampleRateHz, samples); },
      [&] {
        return std::make_unique<cuda::DasKernel>(backend, acq, imaging, sampleRateHz, samples);
      });
  geometry_ = imaging.geometry();
  rfValues_ = static_cast<std::size_t>(acq.transmits()) * static_cast<std::size_t>(acq.elements()) *
              samples;
}

void DasBeamformer::enqueue(compute::Stream& stream, compute::DeviceSpan<const float> rf,
                            compute::DeviceSpan<float> image) const {
  if (rfValues_ == 0) {
    process::detail::throwNotConfigured(kStage);
  }
  process::detail::requireSize(kStage, "rf input", rf.size(), rfValues_);
  process::detail::requireSize(kStage, "image output", image.size(), geometry_.pixels());
  process::detail::requireData(kStage, "rf input", rf.data());
  process::detail::requireData(kStage, "image output", image.data());
  kernel_.visit(kStage,
                [&](const auto& kernel) { kernel.enqueue(stream, rf.data(), image.data()); });
}

std::vector<std::string> DasBeamformer::variants() const {
  return kernel_.variants();
}

void DasBeamformer::selectVariant(std::size_t index) {
  kernel_.selectVariant(kStage, index);
}

std::size_t DasBeamformer::variant() const {
  return kernel_.variant();
}

}  // namespace cineflow::ultrasound

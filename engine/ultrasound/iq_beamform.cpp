#include "ultrasound/iq_beamform.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>

#include "process/stage_checks.hpp"
#include "ultrasound/cpu/iq_beamform.hpp"
#include "ultrasound/cuda/ultrasound_kernels.hpp"

namespace cineflow::ultrasound {
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
  kernel_.make(
      backend.kind(), [&] { return std::make_unique<cpu::IqDasKernel>(acq, imaging, iqSamples); },
      [&] { return std::make_unique<cuda::IqDasKernel>(acq, imaging, iqSamples); });
  geometry_ = imaging.geometry();
  iqFloats_ = acq.samplesPerFrame() / static_cast<std::size_t>(acq.samples) * iqSamples * 2;
}

void IqBeamformer::enqueue(compute::Stream& stream, compute::DeviceSpan<const float> iq,
                           compute::DeviceSpan<float> envelope,
                           compute::DeviceSpan<float> beamformed) const {
  if (iqFloats_ == 0) {
    process::detail::throwNotConfigured(kStage);
  }
  process::detail::requireSize(kStage, "I/Q input (floats)", iq.size(), iqFloats_);
  process::detail::requireSize(kStage, "envelope output", envelope.size(), geometry_.pixels());
  process::detail::requireData(kStage, "I/Q input", iq.data());
  process::detail::requireData(kStage, "envelope output", envelope.data());
  if (beamformed.size() != 0) {
    process::detail::requireSize(kStage, "complex output (floats)", beamformed.size(),
                                 2 * geometry_.pixels());
  }
  if (reinterpret_cast<std::uintptr_t>(iq.data()) % (2 * sizeof(float)) != 0) {
    throw std::invalid_argument("beamform (I/Q): the I/Q input must be 8-byte aligned (complex)");
  }
  kernel_.visit(kStage, [&](const auto& kernel) {
    kernel.enqueue(stream, iq.data(), envelope.data(), beamformed.data());
  });
}

std::vector<std::string> IqBeamformer::variants() const {
  return kernel_.variants();
}

void IqBeamformer::selectVariant(std::size_t index) {
  kernel_.selectVariant(kStage, index);
}

std::size_t IqBeamformer::variant() const {
  return kernel_.variant();
}

}  // namespace cineflow::ultrasound

#include "ultrasound/envelope.hpp"

#include <stdexcept>
#include <string>

#include "process/stage_checks.hpp"
#include "ultrasound/cpu/envelope.hpp"
#include "ultrasound/cuda/ultrasound_kernels.hpp"

namespace cineflow::ultrasound {
namespace {
constexpr const char* kStage = "envelope";
}

EnvelopeDetector::EnvelopeDetector() = default;
EnvelopeDetector::~EnvelopeDetector() = default;
EnvelopeDetector::EnvelopeDetector(EnvelopeDetector&&) noexcept = default;
EnvelopeDetector& EnvelopeDetector::operator=(EnvelopeDetector&&) noexcept = default;

void EnvelopeDetector::configure(compute::Backend& backend,
                                 const process::ImageGeometry& geometry) {
  if (geometry.nx <= 0 || geometry.nz <= 0) {
    throw std::invalid_argument("envelope: image geometry " + std::to_string(geometry.nz) + " x " +
                                std::to_string(geometry.nx) + " must have at least one pixel");
  }
  kernel_.make(
      backend.kind(),
      [&] {
        return std::make_unique<cpu::EnvelopeKernel>(static_cast<std::size_t>(geometry.nz),
                                                     static_cast<std::size_t>(geometry.nx));
      },
      [&] {
        return std::make_unique<cuda::EnvelopeKernel>(
            backend, static_cast<std::size_t>(geometry.nz), static_cast<std::size_t>(geometry.nx));
      });
  geometry_ = geometry;
}

void EnvelopeDetector::enqueue(compute::Stream& stream, compute::DeviceSpan<const float> rf,
                               compute::DeviceSpan<float> envelope) const {
  if (geometry_.pixels() == 0) {
    process::detail::throwNotConfigured(kStage);
  }
  process::detail::requireSize(kStage, "rf input", rf.size(), geometry_.pixels());
  process::detail::requireSize(kStage, "envelope output", envelope.size(), geometry_.pixels());
  process::detail::requireData(kStage, "rf input", rf.data());
  process::detail::requireData(kStage, "envelope output", envelope.data());
  kernel_.visit(kStage,
                [&](const auto& kernel) { kernel.enqueue(stream, rf.data(), envelope.data()); });
}

std::vector<std::string> EnvelopeDetector::variants() const {
  return kernel_.variants();
}

void EnvelopeDetector::selectVariant(std::size_t index) {
  kernel_.selectVariant(kStage, index);
}

std::size_t EnvelopeDetector::variant() const {
  return kernel_.variant();
}

}  // namespace cineflow::ultrasound

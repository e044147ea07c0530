#include "ultrasound/bandpass.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "process/stage_checks.hpp"
#include "ultrasound/cpu/bandpass.hpp"
#include "ultrasound/cuda/ultrasound_kernels.hpp"

namespace cineflow::ultrasound {
namespace {

constexpr const char* kStage = "bandpass";

}  // namespace

BandpassFilter::BandpassFilter() = default;
BandpassFilter::~BandpassFilter() = default;
BandpassFilter::BandpassFilter(BandpassFilter&&) noexcept = default;
BandpassFilter& BandpassFilter::operator=(BandpassFilter&&) noexcept = default;

void BandpassFilter::configure(compute::Backend& backend, const acquire::AcquisitionParams& acq,
                               acquire::SampleType sampleType, const ImagingParams& imaging) {
  acq.validate();
  imaging.validate(acq);
  const int factor = imaging.rfUpsamplingFor(acq);
  const double fs = acq.samplingFrequencyHz;
  const auto [lowRel, highRel] = imaging.rfBandFor(acq);
  const double highHz = std::min(highRel * acq.centerFrequencyHz, 0.98 * fs / 2);
  std::vector<float> taps = designBandpassTaps(factor * (imaging.firTaps - 1) + 1,
                                               lowRel * acq.centerFrequencyHz, highHz, factor * fs);
  for (float& tap : taps) {
    tap *= static_cast<float>(factor);  // the zeros between samples take 1 - 1/U of the gain
  }
  PolyphaseFir phases = splitPolyphase(taps, factor);
  const auto rows =
      static_cast<std::size_t>(acq.transmits()) * static_cast<std::size_t>(acq.elements());
  const auto samples = static_cast<std::size_t>(acq.samples);
  kernel_.make(
      backend.kind(),
      [&] {
        return std::make_unique<cpu::BandpassKernel>(std::move(phases), rows, samples, sampleType);
      },
      [&] {
        return std::make_unique<cuda::BandpassKernel>(backend, phases, rows, samples, sampleType);
      });
  sampleType_ = sampleType;
  rows_ = rows;
  samples_ = samples;
  upsampling_ = factor;
  outputRateHz_ = factor * fs;
  taps_ = std::move(taps);
}

void BandpassFilter::enqueue(compute::Stream& stream, compute::DeviceSpan<const std::byte> raw,
                             compute::DeviceSpan<float> out) const {
  if (taps_.empty()) {
    process::detail::throwNotConfigured(kStage);
  }
  const std::size_t values = rows_ * samples_;
  process::detail::requireSize(kStage, "raw frame (bytes)", raw.size(),
                               values * acquire::sampleBytes(sampleType_));
  process::detail::requireSize(kStage, "filtered output", out.size(), rows_ * outputSamples());
  process::detail::requireData(kStage, "raw frame", raw.data());
  process::detail::requireData(kStage, "filtered output", out.data());
  kernel_.visit(kStage,
                [&](const auto& kernel) { kernel.enqueue(stream, raw.data(), out.data()); });
}

}  // namespace cineflow::ultrasound

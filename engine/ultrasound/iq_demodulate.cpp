#include "ultrasound/iq_demodulate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <stdexcept>
#include <string>

#include "process/stage_checks.hpp"
#include "ultrasound/cpu/iq_demodulate.hpp"
#include "ultrasound/cuda/ultrasound_kernels.hpp"

namespace cineflow::ultrasound {
namespace {

constexpr const char* kStage = "demodulate";

}  // namespace

std::vector<float> mixingPhasors(const acquire::AcquisitionParams& acq) {
  std::vector<float> phasors(2 * static_cast<std::size_t>(acq.samples));
  for (int n = 0; n < acq.samples; ++n) {
    const double cycles = acq.centerFrequencyHz * (acq.t0S + n / acq.samplingFrequencyHz);
    const double phase = 2 * std::numbers::pi * (cycles - std::floor(cycles));
    phasors[2 * static_cast<std::size_t>(n)] = static_cast<float>(std::cos(phase));
    phasors[2 * static_cast<std::size_t>(n) + 1] = static_cast<float>(-std::sin(phase));
  }
  return phasors;
}

IqDemodulator::IqDemodulator() = default;
IqDemodulator::~IqDemodulator() = default;
IqDemodulator::IqDemodulator(IqDemodulator&&) noexcept = default;
IqDemodulator& IqDemodulator::operator=(IqDemodulator&&) noexcept = default;

void IqDemodulator::configure(compute::Backend& backend, const acquire::AcquisitionParams& acq,
                              acquire::SampleType sampleType, const ImagingParams& imaging) {
  acq.validate();
  imaging.validate(acq);
  imaging.validateIq(acq);  // also when a caller configures this stage outside I/Q mode
  const double cutoffHz = imaging.iqBandwidthFor(acq) * acq.centerFrequencyHz / 2;
  std::vector<float> taps = designLowpassTaps(lowpassTapsFor(cutoffHz, acq.samplingFrequencyHz),
                                              cutoffHz, acq.samplingFrequencyHz);
  const std::vector<float> phasors = mixingPhasors(acq);
  const auto rows =
      static_cast<std::size_t>(acq.transmits()) * static_cast<std::size_t>(acq.elements());
  const auto samples = static_cast<std::size_t>(acq.samples);
  const auto decimation = static_cast<std::size_t>(imaging.iqDecimation);
  const std::size_t iqSamples = (samples + decimation - 1) / decimation;
  const cpu::IqDemodulateShape shape{rows, samples, iqSamples, decimation};
  kernel_.make(
      backend.kind(),
      [&] { return std::make_unique<cpu::IqDemodulateKernel>(taps, phasors, shape, sampleType); },
      [&] {
        return std::make_unique<cuda::IqDemodulateKernel>(backend, taps, phasors, rows, samples,
                                                          iqSamples, decimation, sampleType);
      });
  sampleType_ = sampleType;
  rows_ = rows;
  samples_ = samples;
  iqSamples_ = iqSamples;
  taps_ = std::move(taps);
}

void IqDemodulator::enqueue(compute::Stream& stream, compute::DeviceSpan<const std::byte> raw,
                            compute::DeviceSpan<float> iq) const {
  if (taps_.empty()) {
    process::detail::throwNotConfigured(kStage);
  }
  process::detail::requireSize(kStage, "raw frame (bytes)", raw.size(),
                               rows_ * samples_ * acquire::sampleBytes(sampleType_));
  process::detail::requireSize(kStage, "I/Q output (floats)", iq.size(), iqFloats());
  process::detail::requireData(kStage, "raw frame", raw.data());
  process::detail::requireData(kStage, "I/Q output", iq.data());
  if (reinterpret_cast<std::uintptr_t>(iq.data()) % (2 * sizeof(float)) != 0) {
    throw std::invalid_argument("demodulate: the I/Q output must be 8-byte aligned (complex)");
  }
  kernel_.visit(kStage, [&](const auto& kernel) { kernel.enqueue(stream, raw.data(), iq.data()); });
}

}  // namespace cineflow::ultrasound

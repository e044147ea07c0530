#include "process/bandpass.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "process/cpu/bandpass.hpp"
#include "process/stage_checks.hpp"
#if CINEFLOW_HAVE_CUDA
#include "process/cuda/stage_kernels.hpp"
#endif

namespace cineflow::process {
namespace {

constexpr const char* kStage = "bandpass";

double sinc(double x) {
  return x == 0.0 ? 1.0 : std::sin(std::numbers::pi * x) / (std::numbers::pi * x);
}

}  // namespace

std::vector<float> designBandpassTaps(int taps, double lowHz, double highHz, double fsHz) {
  if (taps < 3 || taps % 2 == 0) {
    throw std::invalid_argument("bandpass: tap count " + std::to_string(taps) +
                                " must be odd and >= 3");
  }
  if (!(fsHz > 0) || !std::isfinite(fsHz)) {
    throw std::invalid_argument("bandpass: sampling frequency must be > 0 Hz");
  }
  const double high = std::min(highHz, 0.98 * fsHz / 2);
  if (!(lowHz >= 0 && lowHz < high)) {
    throw std::invalid_argument(
        "bandpass: band [" + std::to_string(lowHz) + ", " + std::to_string(highHz) +
        "] Hz must satisfy 0 <= low < high (high " +
        "clamped to 0.98 * fs/2 = " + std::to_string(0.98 * fsHz / 2) + " Hz)");
  }
  const double low = lowHz / fsHz;  // cycles per sample
  const double highRel = high / fsHz;
  const double centre = (low + highRel) / 2;
  const int half = (taps - 1) / 2;
  std::vector<double> h(static_cast<std::size_t>(taps));
  double centreGain = 0;  // the filter is symmetric, so its response at the centre is real
  for (int n = 0; n < taps; ++n) {
    const double m = n - half;
    const double ideal = 2 * highRel * sinc(2 * highRel * m) - 2 * low * sinc(2 * low * m);
    const double window = 0.54 - 0.46 * std::cos(2 * std::numbers::pi * n / (taps - 1));
    h[static_cast<std::size_t>(n)] = ideal * window;
    centreGain += h[static_cast<std::size_t>(n)] * std::cos(2 * std::numbers::pi * centre * m);
  }
  std::vector<float> result(h.size());
  std::transform(h.begin(), h.end(), result.begin(),
                 [&](double v) { return static_cast<float>(v / std::abs(centreGain)); });
  return result;
}

BandpassFilter::BandpassFilter() = default;
BandpassFilter::~BandpassFilter() = default;
BandpassFilter::BandpassFilter(BandpassFilter&&) noexcept = default;
BandpassFilter& BandpassFilter::operator=(BandpassFilter&&) noexcept = default;

void BandpassFilter::configure(compute::Backend& backend, const acquire::AcquisitionParams& acq,
                               acquire::SampleType sampleType, const ImagingParams& imaging) {
  acq.validate();
  imaging.validate(acq);
  std::vector<float> taps =
      designBandpassTaps(imaging.firTaps, imaging.bandLowRel * acq.centerFrequencyHz,
                         imaging.bandHighRel * acq.centerFrequencyHz, acq.samplingFrequencyHz);
  const auto rows =
      static_cast<std::size_t>(acq.transmits()) * static_cast<std::size_t>(acq.elements());
  const auto samples = static_cast<std::size_t>(acq.samples);
  if (backend.kind() == compute::BackendKind::Cuda) {
#if CINEFLOW_HAVE_CUDA
    cuda_ = std::make_unique<cuda::BandpassKernel>(backend, taps, rows, samples, sampleType);
    cpu_.reset();
#else
    detail::throwNoCudaTwin(kStage);
#endif
  } else {
    cpu_ = std::make_unique<cpu::BandpassKernel>(taps, rows, samples, sampleType);
#if CINEFLOW_HAVE_CUDA
    cuda_.reset();
#endif
  }
  kind_ = backend.kind();
  sampleType_ = sampleType;
  rows_ = rows;
  samples_ = samples;
  taps_ = std::move(taps);
}

void BandpassFilter::enqueue(compute::Stream& stream, compute::DeviceSpan<const std::byte> raw,
                             compute::DeviceSpan<float> out) const {
  if (taps_.empty()) {
    detail::throwNotConfigured(kStage);
  }
  const std::size_t values = rows_ * samples_;
  detail::requireSize(kStage, "raw frame (bytes)", raw.size(),
                      values * acquire::sampleBytes(sampleType_));
  detail::requireSize(kStage, "filtered output", out.size(), values);
  detail::requireData(kStage, "raw frame", raw.data());
  detail::requireData(kStage, "filtered output", out.data());
  switch (kind_) {
    case compute::BackendKind::Cpu:
      cpu_->enqueue(stream, raw.data(), out.data());
      return;
    case compute::BackendKind::Cuda:
#if CINEFLOW_HAVE_CUDA
      cuda_->enqueue(stream, raw.data(), out.data());
      return;
#else
      detail::throwNoCudaTwin(kStage);
#endif
  }
}

}  // namespace cineflow::process

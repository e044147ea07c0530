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

}  // namespace

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

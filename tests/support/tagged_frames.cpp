#include "support/tagged_frames.hpp"
#include "ultrasound/ultrasound_modality.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace cineflow::test {

TaggedSource::TaggedSource(int samplesPerFrame, double frameRateHz) : rate_(frameRateHz) {
  params_.samplingFrequencyHz = 40e6;
  params_.centerFrequencyHz = 5e6;
  params_.soundSpeedMPerS = 1540;
  params_.anglesRad = {0.0};
  for (int e = 0; e < 8; ++e)
    params_.elementXM.push_back(-1e-3 + e * 3e-4);
  params_.samples = samplesPerFrame / 8;
}

void TaggedSource::readFrame(std::uint64_t index, std::span<std::byte> dst,
                             acquire::SliceInfo& slice) {
  if (failAtIndex && index == *failAtIndex) {
    throw acquire::SourceError("tagged source: injected read failure at frame " +
                               std::to_string(index));
  }
  const float tag = static_cast<float>(index);
  float* samples = reinterpret_cast<float*>(dst.data());
  std::fill(samples, samples + dst.size() / sizeof(float), tag);
  slice.sliceIndex = static_cast<int>(index % 4);
  slice.elevationM = 1e-3 * static_cast<double>(slice.sliceIndex);
}

TaggedProcessor::TaggedProcessor(std::chrono::microseconds workPerFrame) : work_(workPerFrame) {}

void TaggedProcessor::configure(compute::Backend& backend, const acquire::FrameSource& source,
                                const modality::ProcessingSettings& settings) {
  if (ultrasound::requireUltrasound(source).sampleType() != acquire::SampleType::Float32) {
    throw std::invalid_argument("TaggedProcessor needs float32 frames");
  }
  geometry_ = ultrasound::requireImaging(settings).geometry();
  kind_ = backend.kind();
  ++configureCount;
}

std::span<const char* const> TaggedProcessor::stageNames() const {
  static const char* const names[] = {"tag"};
  return names;
}

void TaggedProcessor::enqueue(compute::Stream& stream, const acquire::FrameHeader& /*frame*/,
                              compute::DeviceSpan<const std::byte> raw,
                              compute::DeviceSpan<float> image, process::StageMarks marks) {
  stream.record(*marks[0]);
#if CINEFLOW_HAVE_CUDA
  if (kind_ == compute::BackendKind::Cuda) {
    enqueueCudaTag(stream, reinterpret_cast<const float*>(raw.data()), raw.size() / sizeof(float),
                   image.data(), image.size(), work_);
    stream.record(*marks[1]);
    return;
  }
#endif
  stream.enqueueHost([this, raw, image] {
    const float* samples = reinterpret_cast<const float*>(raw.data());
    const std::size_t count = raw.size() / sizeof(float);
    const auto [lo, hi] = std::minmax_element(samples, samples + count);
    if (failAtTag && *lo == static_cast<float>(*failAtTag)) {
      throw std::runtime_error("tagged processor: injected stage failure");
    }
    if (work_.count() > 0)
      std::this_thread::sleep_for(work_);
    std::fill(image.data(), image.data() + image.size(), -1.0f);
    image.data()[0] = *lo;
    image.data()[1] = *hi;
  });
  stream.record(*marks[1]);
}

}  // namespace cineflow::test

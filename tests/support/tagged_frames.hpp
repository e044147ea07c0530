#pragma once
// A source and a processor whose output proves which input an image came from: every sample of
// frame `index` equals `index` (float32, exact up to 2^24), and the processor writes the frame's
// minimum and maximum sample into pixels 0 and 1. An image mixing two inputs has min != max.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "acquire/frame_source.hpp"
#include "modality/frame_processor.hpp"
#include "ultrasound/ultrasound_source.hpp"

namespace cineflow::test {

class TaggedSource final : public ultrasound::UltrasoundSource {
 public:
  // samplesPerFrame is split as 1 transmit x 8 elements x (n / 8) samples.
  explicit TaggedSource(int samplesPerFrame = 64 * 1024, double frameRateHz = 0);
  const acquire::AcquisitionParams& params() const override { return params_; }
  acquire::SampleType sampleType() const override { return acquire::SampleType::Float32; }
  double frameRateHz() const override { return rate_; }
  std::uint64_t frameCount() const override { return std::uint64_t(1) << 24; }
  void readFrame(std::uint64_t index, std::span<std::byte> dst, acquire::SliceInfo& slice) override;
  std::string describe() const override { return "tagged test frames"; }

  std::optional<std::uint64_t> failAtIndex;  // readFrame throws SourceError there

 private:
  acquire::AcquisitionParams params_;
  double rate_;
};

#if CINEFLOW_HAVE_CUDA
// The same stage as a CUDA kernel (tests/support/tag_kernel.cu).
void enqueueCudaTag(compute::Stream& stream, const float* raw, std::size_t count, float* image,
                    std::size_t pixels, std::chrono::microseconds work);
#endif

// Runs its stage on the CPU backend as a host task, on the CUDA backend as a kernel. Failure
// injection (failAtTag) exists on the CPU backend only.
class TaggedProcessor final : public modality::FrameProcessor {
 public:
  explicit TaggedProcessor(std::chrono::microseconds workPerFrame = std::chrono::microseconds(0));
  // Ultrasound's source and settings (a TaggedSource and the grid of ImagingParams).
  void configure(compute::Backend& backend, const acquire::FrameSource& source,
                 const modality::ProcessingSettings& settings) override;
  process::ImageGeometry geometry() const override { return geometry_; }
  std::span<const char* const> stageNames() const override;
  void enqueue(compute::Stream& stream, const acquire::FrameHeader& frame,
               compute::DeviceSpan<const std::byte> raw, compute::DeviceSpan<float> image,
               process::StageMarks marks) override;

  std::optional<std::uint64_t> failAtTag;  // the stage throws when it sees this frame
  std::atomic<int> configureCount{0};

 private:
  process::ImageGeometry geometry_;
  std::chrono::microseconds work_;
  compute::BackendKind kind_ = compute::BackendKind::Cpu;
};

}  // namespace cineflow::test

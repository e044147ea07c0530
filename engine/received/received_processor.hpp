#pragma once
// ReceivedProcessor: the received modality's one stage as a FrameProcessor.
//   stage "levels": each pixel of the raw frame (received_format.hpp) to its dB value
//                   (received_modality.hpp: levels or as dB), the same on both backends
//                   (received/cpu/levels.hpp, received/cuda/received_kernels.hpp)
// Memory: none beyond the engine's buffers. enqueue() never allocates or synchronises.

#include <array>

#include "modality/frame_processor.hpp"
#include "received/received_modality.hpp"

namespace cineflow::received {

// dB = scale * v + offset for every pixel v: what the levels make of a pixel value.
struct LevelMap {
  float scale = 1, offset = 0;
  static LevelMap of(const ReceivedLevels& levels);
};

class ReceivedProcessor final : public modality::FrameProcessor {
 public:
  void configure(compute::Backend& backend, const ReceivedFormat& format,
                 const ReceivedLevels& levels);
  // A ReceivedSource and ReceivedSettings; throws std::invalid_argument for another modality's.
  void configure(compute::Backend& backend, const acquire::FrameSource& source,
                 const modality::ProcessingSettings& settings) override;
  process::ImageGeometry geometry() const override { return format_.geometry(); }
  std::span<const char* const> stageNames() const override { return kStages; }
  void enqueue(compute::Stream& stream, const acquire::FrameHeader& frame,
               compute::DeviceSpan<const std::byte> raw, compute::DeviceSpan<float> image,
               process::StageMarks marks) override;

 private:
  static constexpr std::array<const char*, 1> kStages = {"levels"};

  compute::BackendKind kind_ = compute::BackendKind::Cpu;
  ReceivedFormat format_;
  LevelMap map_;
};

}  // namespace cineflow::received

#pragma once
// FrameProcessor: turns one raw frame on the device into one float32 image on the device.
// The engine is generic over it; BmodeProcessor (bmode_processor.hpp) is the imaging chain.

#include <cstddef>
#include <memory>
#include <span>

#include "acquire/frame.hpp"
#include "compute/backend.hpp"
#include "compute/buffer.hpp"
#include "process/imaging_params.hpp"

namespace cineflow::process {

// Events recorded around the stages of one frame: marks[0] before the first stage and
// marks[i + 1] after stage i. Owned by the engine's in-flight slot; read after the frame is done.
using StageMarks = std::span<const std::unique_ptr<compute::Event>>;

class FrameProcessor {
 public:
  virtual ~FrameProcessor() = default;
  // Sizes every buffer, table and plan once, outside the frame loop (on the engine thread, with
  // no frame in flight). Throws std::invalid_argument for parameters it cannot honour.
  virtual void configure(compute::Backend& backend, const acquire::AcquisitionParams& acq,
                         acquire::SampleType sampleType, const ImagingParams& imaging) = 0;
  virtual ImageGeometry geometry() const = 0;
  virtual std::span<const char* const> stageNames() const = 0;
  // Enqueues the processing of `raw` (device memory, params().samplesPerFrame() samples of the
  // configured type) into `image` (device memory, geometry().pixels() floats, [z][x]) on
  // `stream`. Never synchronises and never allocates. Records stageNames().size() + 1 marks.
  virtual void enqueue(compute::Stream& stream, compute::DeviceSpan<const std::byte> raw,
                       compute::DeviceSpan<float> image, StageMarks marks) = 0;
};

}  // namespace cineflow::process

#pragma once
// FrameProcessor: turns one raw frame on the device into one float32 image on the device; part of
// the modality seam. The engine is generic over it; each modality makes its own
// (modality/modality.hpp): ultrasound's BmodeProcessor, OCT's OctProcessor.

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "acquire/frame_source.hpp"
#include "compute/backend.hpp"
#include "compute/buffer.hpp"
#include "modality/modality.hpp"
#include "process/image_geometry.hpp"
#include "process/stage_marks.hpp"
#include "tune/tuning.hpp"

namespace cineflow::modality {

class FrameProcessor {
 public:
  virtual ~FrameProcessor() = default;
  // Sizes every buffer, table and plan once, outside the frame loop (on the engine thread, with
  // no frame in flight). Throws std::invalid_argument for parameters it cannot honour.
  // `source` and `settings` are its modality's (the processor turns them into its own types and
  // throws std::invalid_argument for another modality's).
  virtual void configure(compute::Backend& backend, const acquire::FrameSource& source,
                         const ProcessingSettings& settings) = 0;
  virtual process::ImageGeometry geometry() const = 0;
  virtual std::span<const char* const> stageNames() const = 0;
  // Enqueues the processing of `raw` (device memory, one frame of the configured source's
  // frameBytes()) into `image` (device memory, geometry().values() floats, [layer][z][x]) on
  // `stream`. `frame` is the raw frame's header: which frame of its source it is (a modality
  // whose frames alternate, such as OCT's bidirectional B-scans, reads the direction from it).
  // Never synchronises and never allocates. Records stageNames().size() + 1 marks.
  virtual void enqueue(compute::Stream& stream, const acquire::FrameHeader& frame,
                       compute::DeviceSpan<const std::byte> raw, compute::DeviceSpan<float> image,
                       process::StageMarks marks) = 0;
  // Whether every layer of the image the last enqueue() wrote was computed from that frame's
  // data: false when a layer repeats an earlier frame's result or holds none yet (Doppler's flow
  // layers between the estimates of block mode, and before the first full ensemble). Read on the
  // enqueuing thread right after enqueue(); true by default.
  virtual bool lastImageFresh() const { return true; }
  // Whether its images depend on the frames before them in acquisition order (Doppler's slow-time
  // ensembles): the engine then images every frame, also under OverflowPolicy::Latest, whose
  // skipping would break every ensemble (and never show flow). Read on the engine thread after
  // configure(); false by default.
  virtual bool needsEveryFrame() const { return false; }
  // The configured stages that have several implementations (tune/tuning.hpp), for the tuner:
  // each selects a variant and runs the stage once, synchronously, on the processor's own
  // buffers (on the engine thread, with no frame in flight). Valid until the next configure().
  // None by default.
  virtual std::vector<tune::TunableStage> tunableStages(compute::Backend& /*backend*/) {
    return {};
  }
};

}  // namespace cineflow::modality

#pragma once
// The stage marks every frame processor records (modality/frame_processor.hpp), and the checks
// every processor's enqueue() makes before enqueuing anything (one wording for all).

#include <cstddef>
#include <memory>
#include <span>

#include "compute/backend.hpp"
#include "compute/buffer.hpp"

namespace cineflow::process {

// Events recorded around the stages of one frame: marks[0] before the first stage and
// marks[i + 1] after stage i. Owned by the engine's in-flight slot; read after the frame is done.
using StageMarks = std::span<const std::unique_ptr<compute::Event>>;

// The boundary checks every processor's enqueue() makes before enqueuing anything (one wording
// for all): configured (pixels > 0), `marks` empty or stages + 1 non-null events, `image` of
// `pixels` floats, `raw` of `rawBytes` bytes, neither null. Throws std::logic_error (not
// configured) or std::invalid_argument naming `processor`.
void checkEnqueue(const char* processor, std::size_t pixels, std::size_t rawBytes,
                  std::size_t stages, compute::DeviceSpan<const std::byte> raw,
                  compute::DeviceSpan<float> image, StageMarks marks);
// Records marks[index] on `stream` unless `marks` is empty (no timing).
void recordMark(compute::Stream& stream, StageMarks marks, std::size_t index);

}  // namespace cineflow::process

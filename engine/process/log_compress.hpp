#pragma once
// Log compression of the envelope into absolute decibels (docs/ultrasound.md).
//
// Contract
//   input   envelope float32 (any layout; [nz][nx] in the B-mode chain), device memory.
//   output  float32 dB, same layout: out = 20 log10(max(in, 1e-10)). Absolute, not normalised
//           per frame: the display maps [gain - dynamic range, gain] to grey. May run in place
//           (out == in); must not otherwise overlap the input.
//   stream  enqueue() only enqueues work on `stream`: it never allocates or synchronises.

#include <cstddef>

#include "compute/backend.hpp"
#include "compute/buffer.hpp"
#include "process/image_geometry.hpp"

namespace cineflow::process {

// The floor applied before the logarithm: -200 dB, far below any displayed range.
inline constexpr float kLogCompressFloor = 1e-10f;

class LogCompressor {
 public:
  // Throws std::logic_error for a backend without this stage.
  void configure(compute::Backend& backend, const ImageGeometry& geometry);
  // Throws std::invalid_argument (before enqueuing anything) for spans of the wrong size.
  void enqueue(compute::Stream& stream, compute::DeviceSpan<const float> in,
               compute::DeviceSpan<float> out) const;

  std::size_t values() const { return values_; }

 private:
  compute::BackendKind kind_ = compute::BackendKind::Cpu;
  std::size_t values_ = 0;
};

}  // namespace cineflow::process

#pragma once
// Named ranges for Nsight Systems (NVTX) on the host thread that enqueues work, with the names the
// trace export uses (profile/trace_recorder.hpp): "acquire", "upload", and the stages' own names
// in their CUDA launchers. A no-op in builds without CUDA.

namespace cineflow::compute {

class ScopedRange {
 public:
  explicit ScopedRange(const char* name) noexcept;  // `name` must outlive the range
  ~ScopedRange();
  ScopedRange(const ScopedRange&) = delete;
  ScopedRange& operator=(const ScopedRange&) = delete;
};

}  // namespace cineflow::compute

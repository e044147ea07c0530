#pragma once
// Named ranges for Nsight Systems (NVTX) on the host thread that enqueues work, with the names the
// trace export uses (profile/trace_recorder.hpp): "acquire", "upload", and the stages' own names
// in their CUDA launchers. A no-op for NVTX in builds without CUDA.
//
// Every range goes through ScopedRange, never through nvtxRangePush/Pop directly: the destructor
// pops what the constructor pushed, also when an exception (a failed CUDA check, a bad input)
// leaves the scope between the two, so a thrown error never leaves the thread's NVTX stack one
// level deeper for the rest of the run.

namespace cineflow::compute {

class ScopedRange {
 public:
  explicit ScopedRange(const char* name) noexcept;  // `name` must outlive the range
  ~ScopedRange();
  ScopedRange(const ScopedRange&) = delete;
  ScopedRange& operator=(const ScopedRange&) = delete;

  // Ranges open on the calling thread: pushed by a ScopedRange and not yet popped. Counted in
  // every build, so that tests without NVTX can check that ranges pair up.
  static int openOnThisThread() noexcept;
};

}  // namespace cineflow::compute

#pragma once
// Data-parallel loops for CPU-backend stages. One process-wide pool of worker threads (named
// "cf-pool-N") is shared by every stream; the calling thread takes part in its own loop, so
// loops started concurrently from several streams all make progress. No allocation per call.

#include <cstddef>
#include <type_traits>
#include <utility>

namespace cineflow::compute::cpu {

// A non-owning reference to a callable body(begin, end).
class RangeBody {
 public:
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, RangeBody>>>
  RangeBody(F& fn)  // NOLINT(google-explicit-constructor)
      : object_(&fn),
        call_([](void* o, std::size_t b, std::size_t e) { (*static_cast<F*>(o))(b, e); }) {}
  void operator()(std::size_t begin, std::size_t end) const { call_(object_, begin, end); }

 private:
  void* object_;
  void (*call_)(void*, std::size_t, std::size_t);
};

// Calls body(b, e) over the chunks [k grain, min(count, (k + 1) grain)) covering [0, count) (grain
// 0 picks a size that gives every worker several chunks), so b / grain numbers a chunk: a body
// may keep per-chunk scratch by it. Returns when every chunk has run. An
// exception thrown by the body is rethrown here after all chunks have finished.
void parallelFor(std::size_t count, std::size_t grain, RangeBody body);

// Threads that execute parallelFor chunks (pool workers plus the caller).
std::size_t parallelism() noexcept;

}  // namespace cineflow::compute::cpu

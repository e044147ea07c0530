#include "compute/annotate.hpp"

#if CINEFLOW_HAVE_CUDA
#include <nvtx3/nvToolsExt.h>
#endif

namespace cineflow::compute {
namespace {
thread_local int openRanges = 0;
}  // namespace

ScopedRange::ScopedRange([[maybe_unused]] const char* name) noexcept {
#if CINEFLOW_HAVE_CUDA
  nvtxRangePushA(name);
#endif
  ++openRanges;
}

ScopedRange::~ScopedRange() {
  --openRanges;
#if CINEFLOW_HAVE_CUDA
  nvtxRangePop();
#endif
}

int ScopedRange::openOnThisThread() noexcept {
  return openRanges;
}

}  // namespace cineflow::compute

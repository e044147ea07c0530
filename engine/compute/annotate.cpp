#include "compute/annotate.hpp"

#if CINEFLOW_HAVE_CUDA
#include <nvtx3/nvToolsExt.h>
#endif

namespace cineflow::compute {

ScopedRange::ScopedRange([[maybe_unused]] const char* name) noexcept {
#if CINEFLOW_HAVE_CUDA
  nvtxRangePushA(name);
#endif
}

ScopedRange::~ScopedRange() {
#if CINEFLOW_HAVE_CUDA
  nvtxRangePop();
#endif
}

}  // namespace cineflow::compute

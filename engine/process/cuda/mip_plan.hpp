#pragma once
// How the CUDA MIP launchers (stage_kernels.hpp) project one volume shape on one device. Plain
// C++, so that process/mip.hpp can hold a plan in every build.

#include <cstddef>

namespace cineflow::process::cuda {

struct MipTilePlan {
  int rows = 0;     // depth rows per tile (threads along y of a block)
  int blocks = 0;   // about one per multiprocessor, a multiple of cluster
  int cluster = 1;  // blocks per thread-block cluster (sm_90: their maxima meet on chip)
  std::size_t sharedBytes = 0;
};

struct MipPlan {
  bool onePass = false;
  MipTilePlan tile;
  int zChunks = 0;  // three-pass partial maxima along z
  std::size_t scratchFloats = 0;
};

}  // namespace cineflow::process::cuda

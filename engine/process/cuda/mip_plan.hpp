#pragma once
// How the CUDA MIP launchers (stage_kernels.hpp) project one volume shape on one device. Plain
// C++, so that process/mip.hpp can hold a plan in every build.

#include <cstddef>
#include <cstdint>

namespace cineflow::process::cuda {

struct MipTilePlan {
  int rows = 0;    // depth rows per tile (threads along y of a block)
  int blocks = 0;  // about one per multiprocessor, a multiple of cluster
  // Blocks per thread-block cluster, whose maxima meet on chip: 8 where both the device and this
  // build's code for it have clusters (sm_90 and newer), 1 elsewhere (sm_75 to sm_89).
  int cluster = 1;
  std::size_t sharedBytes = 0;
  // How long a block waits for the launch's first block to empty the projection along z before
  // it reports a fault and gives up (mip_tile.cu); the wait is microseconds when all is well.
  std::uint64_t waitLimitNs = 1'000'000'000;
};

struct MipPlan {
  bool onePass = false;
  MipTilePlan tile;
  int zChunks = 0;  // three-pass partial maxima along z
  std::size_t scratchFloats = 0;
};

}  // namespace cineflow::process::cuda

#pragma once
// Between the MIP launchers (mip.cu) and the one-pass kernel (mip_tile.cu).

#include <cuda_runtime.h>

#include <cstddef>

#include "process/cuda/stage_kernels.hpp"

namespace cineflow::process::cuda {

// Rows of nx pixels that the one-pass kernel takes (a multiple of 4, at most 256).
bool mipTileFits(int nx);
// Launch shape for the current device; allows the kernel its shared memory. allowClusters false
// plans as for a device without clusters (sm_75 to sm_89): for tests on one that has them.
MipTilePlan planMipTile(int nz, bool allowClusters = true);
// Synchronous: clears the kernel's three launch marks (`sync`, device memory).
void prepareMipTileSync(unsigned* sync);
// volume and alongY 16-byte aligned; `launch` differs from the previous launch's on this `sync`
// and is never 0. The kernel reports a fault into `faultWord` (CudaStream::faultWord()) when it
// gives up waiting for alongZ to be emptied; the stream's takeError() then names it.
void enqueueMipTile(cudaStream_t stream, const MipTilePlan& plan, const float* volume, int ny,
                    int nz, int nx, unsigned* sync, unsigned launch, unsigned* faultWord,
                    float* alongY, float* alongZ, float* alongX);

}  // namespace cineflow::process::cuda

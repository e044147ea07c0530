#pragma once
// Between the MIP launchers (mip.cu) and the one-pass kernel (mip_tile.cu).

#include <cuda_runtime.h>

#include <cstddef>

#include "process/cuda/stage_kernels.hpp"

namespace cineflow::process::cuda {

// Rows of nx pixels that the one-pass kernel takes (a multiple of 4, at most 256).
bool mipTileFits(int nx);
// Launch shape for the current device; allows the kernel its shared memory.
MipTilePlan planMipTile(int nz);
// Synchronous: clears the kernel's two launch marks (`sync`, device memory).
void prepareMipTileSync(unsigned* sync);
// volume and alongY 16-byte aligned; `launch` differs from the previous launch's on this `sync`
// and is never 0.
void enqueueMipTile(cudaStream_t stream, const MipTilePlan& plan, const float* volume, int ny,
                    int nz, int nx, unsigned* sync, unsigned launch, float* alongY, float* alongZ,
                    float* alongX);

}  // namespace cineflow::process::cuda

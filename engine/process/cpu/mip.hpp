#pragma once
// CPU backend of MipProjector (process/mip.hpp holds the contract).

#include <cstddef>

namespace cineflow::process::cpu {

// The two CPU variants of the projections of volume [ny][nz][nx] (host-accessible backend
// memory), synchronous on the calling thread and the pool:
//   "two-pass": along y through the slab in chunks of pixels, then each slice along z and x;
//   "one-pass": each task a band of depth rows of every slice, read once for all three, its
//   maxima along z kept apart in `bandScratch` (mipBandScratchFloats) and met at the end.
void mips(const float* volume, int ny, int nz, int nx, float* alongY, float* alongZ, float* alongX);
void mipsOnePass(const float* volume, int ny, int nz, int nx, float* bandScratch, float* alongY,
                 float* alongZ, float* alongX);
// The depth bands of the one-pass variant (one per pool thread, at most nz) and its scratch.
int mipBands(int nz);
std::size_t mipBandScratchFloats(int ny, int nz, int nx);

}  // namespace cineflow::process::cpu

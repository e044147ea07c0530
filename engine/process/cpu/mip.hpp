#pragma once
// CPU backend of MipProjector (process/mip.hpp holds the contract).

#include "compute/backend.hpp"

namespace cineflow::process::cpu {

// Enqueues the three projections of volume [ny][nz][nx] on `stream` (host-accessible backend
// memory); the task runs parallelFor on the stream's thread.
void enqueueMips(compute::Stream& stream, const float* volume, int ny, int nz, int nx,
                 float* alongY, float* alongZ, float* alongX);
// The body of that task, synchronous on the calling thread (and the pool).
void mips(const float* volume, int ny, int nz, int nx, float* alongY, float* alongZ, float* alongX);

}  // namespace cineflow::process::cpu

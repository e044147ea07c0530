#pragma once
// The 3-D view's empty-space skipping (ui/volume_renderer): each 8^3 brick's largest value of a
// volume, over the voxels that trilinear sampling inside the brick reads (its own and one more on
// each side), so that a ray may jump over a brick whose largest value cannot show.
//
// Contract
//   volume  float32 dB [ny][nz][nx], the backend's device memory (host memory on the CPU).
//   bricks  float32 [ceil(ny/8)][ceil(nz/8)][ceil(nx/8)], the backend's device memory; maxima as
//           the MIPs take them (process/cuda/mip_max.hpp: NaN ignored); -inf for a brick of NaNs.
//   stream  enqueueBrickMaxima() only enqueues work on `stream`: it never allocates or waits.
//   Throws std::invalid_argument (before enqueuing anything) for an empty shape or spans of the
//   wrong size.

#include <cstddef>

#include "compute/backend.hpp"
#include "compute/buffer.hpp"
#include "process/mip.hpp"

namespace cineflow::process {

// The brick grid of a volume (VolumeShape's order: y, z, x).
VolumeShape brickShape(const VolumeShape& volume);

void enqueueBrickMaxima(compute::Stream& stream, compute::BackendKind kind,
                        compute::DeviceSpan<const float> volume, const VolumeShape& shape,
                        compute::DeviceSpan<float> bricks);

// The same on host memory, now (the CPU backend's work, and the reference in tests).
void brickMaximaHost(const float* volume, const VolumeShape& shape, float* bricks);

}  // namespace cineflow::process

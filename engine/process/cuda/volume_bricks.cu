// CUDA twin of process/volume_bricks.cpp's host loops: one thread per brick.

#include "compute/annotate.hpp"
#include "compute/cuda/cuda_check.hpp"
#include "compute/cuda/cuda_stream.hpp"
#include "process/cuda/brick_max.hpp"
#include "process/cuda/stage_kernels.hpp"

namespace cineflow::process::cuda {
namespace {

__global__ void brickMaximaKernel(const float* __restrict__ volume, int ny, int nz, int nx,
                                  int bricksX, int bricksZ, int bricksY, float* bricks) {
  const int bx = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int bz = static_cast<int>(blockIdx.y);
  const int by = static_cast<int>(blockIdx.z);
  if (bx < bricksX && bz < bricksZ && by < bricksY) {
    bricks[(static_cast<long long>(by) * bricksZ + bz) * bricksX + bx] =
        brickMaximum(volume, ny, nz, nx, bx, bz, by);
  }
}

}  // namespace

void enqueueBrickMaxima(compute::Stream& stream, const float* volume, int ny, int nz, int nx,
                        float* bricks) {
  const compute::ScopedRange range("bricks");
  const cudaStream_t s = compute::cuda::asCudaStream(stream).get();
  const int bricksX = bricksAlong(nx), bricksZ = bricksAlong(nz), bricksY = bricksAlong(ny);
  const dim3 block(32);
  const dim3 grid(static_cast<unsigned>((bricksX + 31) / 32), static_cast<unsigned>(bricksZ),
                  static_cast<unsigned>(bricksY));
  brickMaximaKernel<<<grid, block, 0, s>>>(volume, ny, nz, nx, bricksX, bricksZ, bricksY, bricks);
  compute::cuda::checkLaunch("brickMaximaKernel", s);
}

}  // namespace cineflow::process::cuda

// CUDA twin of process/cpu/mip.cpp: one memory-bound pass over the volume for rows up to 256
// pixels wide (three passes beyond).
#include <nvtx3/nvToolsExt.h>

#include <algorithm>

#include "compute/cuda/cuda_check.hpp"
#include "compute/cuda/cuda_stream.hpp"
#include "process/cuda/stage_kernels.hpp"

namespace cineflow::process::cuda {
namespace {

constexpr int kZChunk = 32;  // depths per partial maximum along z (three-pass fallback)
constexpr int kThreads = 256;
constexpr int kWarp = 32;
// The one-pass kernel: one warp per depth row, kRowsPerBlock rows per block; each lane keeps the
// maxima along y of up to kMaxXPerLane pixels of its row in registers, and loads kSlicesAhead
// slices before using any, so that enough reads are in flight to keep the memory busy.
constexpr int kRowsPerBlock = 8;
constexpr int kMaxXPerLane = 8;  // rows up to 256 pixels wide; wider ones take three passes
constexpr int kSlicesAhead = 4;

__device__ __forceinline__ float nanValue() {
  return __int_as_float(0x7fc00000);
}

// One pass over the volume for all three projections. Block b owns depth rows
// [b * kRowsPerBlock, ...) of every slice: its warps read their rows (coalesced, lanes across x),
// fold them into the running maxima along y (registers), reduce each row to its maximum along x
// (shuffles), and the block writes the maximum over its rows for each (y, x), a partial maximum
// along z that mipAlongZReduceKernel finishes. Maxima start from NaN, which fmaxf ignores, so the
// result is the fmax of the line's values, as on the CPU.
__global__ void __launch_bounds__(kRowsPerBlock* kWarp)
    mipOnePassKernel(const float* __restrict__ volume, int ny, int nz, int nx,
                     float* __restrict__ alongY, float* __restrict__ alongX,
                     float* __restrict__ partialZ) {
  // The block's rows of kSlicesAhead slices: 32 KiB.
  __shared__ float rows[kSlicesAhead][kRowsPerBlock][kMaxXPerLane * kWarp];
  const int lane = threadIdx.x;
  const int warp = threadIdx.y;
  const int firstRow = blockIdx.x * kRowsPerBlock;
  const int rowsHere = min(kRowsPerBlock, nz - firstRow);
  const int z = firstRow + warp;
  const bool active = warp < rowsHere;
  const int thread = warp * kWarp + lane;
  float yMax[kMaxXPerLane];
#pragma unroll
  for (int k = 0; k < kMaxXPerLane; ++k) {
    yMax[k] = nanValue();
  }
  for (int y0 = 0; y0 < ny; y0 += kSlicesAhead) {
    const int slices = min(kSlicesAhead, ny - y0);
    float values[kSlicesAhead][kMaxXPerLane];
    if (active) {
#pragma unroll
      for (int j = 0; j < kSlicesAhead; ++j) {
        const float* row = volume + (static_cast<std::size_t>(y0 + j) * nz + z) * nx;
#pragma unroll
        for (int k = 0; k < kMaxXPerLane; ++k) {
          const int x = lane + k * kWarp;
          values[j][k] = (j < slices && x < nx) ? row[x] : nanValue();
        }
      }
    }
    // All loads are in flight; now fold the slices in.
    if (active) {
#pragma unroll
      for (int j = 0; j < kSlicesAhead; ++j) {
        float rowMax = nanValue();
#pragma unroll
        for (int k = 0; k < kMaxXPerLane; ++k) {
          yMax[k] = fmaxf(yMax[k], values[j][k]);
          rowMax = fmaxf(rowMax, values[j][k]);
          rows[j][warp][lane + k * kWarp] = values[j][k];
        }
#pragma unroll
        for (int offset = kWarp / 2; offset > 0; offset /= 2) {
          rowMax = fmaxf(rowMax, __shfl_xor_sync(0xffffffffu, rowMax, offset));
        }
        if (lane == 0 && j < slices) {
          alongX[static_cast<std::size_t>(y0 + j) * nz + z] = rowMax;
        }
      }
    }
    __syncthreads();
    for (int j = 0; j < slices; ++j) {
      for (int x = thread; x < nx; x += kRowsPerBlock * kWarp) {
        float m = rows[j][0][x];
        for (int r = 1; r < rowsHere; ++r) {
          m = fmaxf(m, rows[j][r][x]);
        }
        partialZ[(static_cast<std::size_t>(blockIdx.x) * ny + y0 + j) * nx + x] = m;
      }
    }
    __syncthreads();  // the rows are rewritten for the next slices
  }
  if (active) {
#pragma unroll
    for (int k = 0; k < kMaxXPerLane; ++k) {
      const int x = lane + k * kWarp;
      if (x < nx) {
        alongY[static_cast<std::size_t>(z) * nx + x] = yMax[k];
      }
    }
  }
}

// The three-pass fallback for wider rows.

// Along y: one thread per (z, x) pixel walks the slices; neighbouring threads read neighbouring
// pixels, so every load is coalesced.
__global__ void mipAlongYKernel(const float* __restrict__ volume, int ny, std::size_t slice,
                                float* __restrict__ out) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < slice;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    float m = volume[i];
#pragma unroll 4
    for (int y = 1; y < ny; ++y) {
      m = fmaxf(m, volume[static_cast<std::size_t>(y) * slice + i]);
    }
    out[i] = m;
  }
}

// Along z, first pass: thread (x, chunk, y) takes the maximum over kZChunk depths; rows of x are
// read coalesced. grid = (ceil(nx / kThreads), chunks, ny).
__global__ void mipAlongZPartialKernel(const float* __restrict__ volume, int ny, int nz, int nx,
                                       float* __restrict__ partial) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int chunk = blockIdx.y;
  const int y = blockIdx.z;
  if (x >= nx) {
    return;
  }
  const int zBegin = chunk * kZChunk;
  const int zEnd = min(nz, zBegin + kZChunk);
  const float* plane = volume + static_cast<std::size_t>(y) * nz * nx;
  float m = plane[static_cast<std::size_t>(zBegin) * nx + x];
#pragma unroll 8
  for (int z = zBegin + 1; z < zEnd; ++z) {
    m = fmaxf(m, plane[static_cast<std::size_t>(z) * nx + x]);
  }
  partial[(static_cast<std::size_t>(chunk) * ny + y) * nx + x] = m;
}

// Along z, second pass: the maximum of the chunks' partial maxima.
__global__ void mipAlongZReduceKernel(const float* __restrict__ partial, int chunks,
                                      std::size_t plane, float* __restrict__ out) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < plane;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    float m = partial[i];
    for (int c = 1; c < chunks; ++c) {
      m = fmaxf(m, partial[static_cast<std::size_t>(c) * plane + i]);
    }
    out[i] = m;
  }
}

// Along x: one warp per (y, z) row; lanes stride through the row, then a shuffle reduction.
__global__ void mipAlongXKernel(const float* __restrict__ volume, std::size_t rows, int nx,
                                float* __restrict__ out) {
  const std::size_t warpsPerBlock = blockDim.x / kWarp;
  const int lane = threadIdx.x % kWarp;
  for (std::size_t row = blockIdx.x * warpsPerBlock + threadIdx.x / kWarp; row < rows;
       row += static_cast<std::size_t>(gridDim.x) * warpsPerBlock) {
    const float* values = volume + row * nx;
    float m = lane < nx ? values[lane] : values[0];
    for (int x = lane + kWarp; x < nx; x += kWarp) {
      m = fmaxf(m, values[x]);
    }
#pragma unroll
    for (int offset = kWarp / 2; offset > 0; offset /= 2) {
      m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, offset));
    }
    if (lane == 0) {
      out[row] = m;
    }
  }
}

unsigned blocksFor(std::size_t items) {
  return static_cast<unsigned>(std::min<std::size_t>((items + kThreads - 1) / kThreads, 65535));
}

}  // namespace

bool mipOnePass(int nx) {
  return nx <= kMaxXPerLane * kWarp;
}

int mipZChunks(int nz, int nx) {
  return mipOnePass(nx) ? (nz + kRowsPerBlock - 1) / kRowsPerBlock : (nz + kZChunk - 1) / kZChunk;
}

void enqueueMips(compute::Stream& stream, const float* volume, int ny, int nz, int nx, int zChunks,
                 float* partialZ, float* alongY, float* alongZ, float* alongX) {
  nvtxRangePushA("mip");
  const cudaStream_t s = compute::cuda::asCudaStream(stream).get();
  const std::size_t plane = static_cast<std::size_t>(ny) * nx;
  if (mipOnePass(nx)) {
    const dim3 block(kWarp, kRowsPerBlock);
    mipOnePassKernel<<<zChunks, block, 0, s>>>(volume, ny, nz, nx, alongY, alongX, partialZ);
    compute::cuda::checkLaunch("mipOnePassKernel", s);
    mipAlongZReduceKernel<<<blocksFor(plane), kThreads, 0, s>>>(partialZ, zChunks, plane, alongZ);
    compute::cuda::checkLaunch("mipAlongZReduceKernel", s);
    nvtxRangePop();
    return;
  }
  const std::size_t slice = static_cast<std::size_t>(nz) * nx;
  mipAlongYKernel<<<blocksFor(slice), kThreads, 0, s>>>(volume, ny, slice, alongY);
  compute::cuda::checkLaunch("mipAlongYKernel", s);

  const dim3 partialGrid((nx + kThreads - 1) / kThreads, zChunks, ny);
  mipAlongZPartialKernel<<<partialGrid, kThreads, 0, s>>>(volume, ny, nz, nx, partialZ);
  compute::cuda::checkLaunch("mipAlongZPartialKernel", s);
  mipAlongZReduceKernel<<<blocksFor(plane), kThreads, 0, s>>>(partialZ, zChunks, plane, alongZ);
  compute::cuda::checkLaunch("mipAlongZReduceKernel", s);

  const std::size_t rows = static_cast<std::size_t>(ny) * nz;
  mipAlongXKernel<<<blocksFor(rows * kWarp), kThreads, 0, s>>>(volume, rows, nx, alongX);
  compute::cuda::checkLaunch("mipAlongXKernel", s);
  nvtxRangePop();
}

}  // namespace cineflow::process::cuda

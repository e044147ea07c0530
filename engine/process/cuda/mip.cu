// CUDA twin of process/cpu/mip.cpp: the launchers, and the three-pass fallback for rows that the
// one-pass kernel (mip_tile.cu) does not take.
#include <algorithm>
#include <cstdint>

#include "compute/annotate.hpp"
#include "compute/cuda/cuda_check.hpp"
#include "compute/cuda/cuda_stream.hpp"
#include "process/cuda/mip_kernels.hpp"
#include "process/cuda/mip_max.hpp"

namespace cineflow::process::cuda {
namespace {

constexpr int kZChunk = 32;  // depths per partial maximum along z
constexpr int kThreads = 256;
constexpr int kWarp = 32;

// Along y: one thread per (z, x) pixel walks the slices; neighbouring threads read neighbouring
// pixels, so every load is coalesced.
__global__ void mipAlongYKernel(const float* __restrict__ volume, int ny, std::size_t slice,
                                float* __restrict__ out) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < slice;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    float m = volume[i];
#pragma unroll 4
    for (int y = 1; y < ny; ++y) {
      m = mipMax(m, volume[static_cast<std::size_t>(y) * slice + i]);
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
    m = mipMax(m, plane[static_cast<std::size_t>(z) * nx + x]);
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
      m = mipMax(m, partial[static_cast<std::size_t>(c) * plane + i]);
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
      m = mipMax(m, values[x]);
    }
#pragma unroll
    for (int offset = kWarp / 2; offset > 0; offset /= 2) {
      m = mipMax(m, __shfl_xor_sync(0xffffffffu, m, offset));
    }
    if (lane == 0) {
      out[row] = m;
    }
  }
}

unsigned blocksFor(std::size_t items) {
  return static_cast<unsigned>(std::min<std::size_t>((items + kThreads - 1) / kThreads, 65535));
}

// Scratch layout: the one-pass kernel's three launch marks, padded to 16 bytes, then the three-pass
// partial maxima along z ([zChunks][ny][nx]).
constexpr std::size_t kTileSyncFloats = 4;

bool aligned16(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

}  // namespace

MipPlan planMips(int ny, int nz, int nx) {
  MipPlan plan;
  plan.onePass = mipTileFits(nx);
  if (plan.onePass) {
    plan.tile = planMipTile(nz);
  }
  plan.zChunks = (nz + kZChunk - 1) / kZChunk;
  plan.scratchFloats =
      (plan.onePass ? kTileSyncFloats : 0) + static_cast<std::size_t>(plan.zChunks) * ny * nx;
  return plan;
}

void prepareMipScratch(const MipPlan& plan, float* scratch) {
  if (plan.onePass) {
    prepareMipTileSync(reinterpret_cast<unsigned*>(scratch));
  }
}

void enqueueMips(compute::Stream& stream, const MipPlan& plan, unsigned launch, const float* volume,
                 int ny, int nz, int nx, float* scratch, float* alongY, float* alongZ,
                 float* alongX, bool multiPass) {
  const compute::ScopedRange range("mip");
  compute::cuda::CudaStream& cudaStream = compute::cuda::asCudaStream(stream);
  const cudaStream_t s = cudaStream.get();
  const std::size_t plane = static_cast<std::size_t>(ny) * nx;
  if (plan.onePass && !multiPass && aligned16(volume) && aligned16(alongY)) {
    enqueueMipTile(s, plan.tile, volume, ny, nz, nx, reinterpret_cast<unsigned*>(scratch), launch,
                   cudaStream.faultWord(), alongY, alongZ, alongX);
    return;
  }
  float* partialZ = scratch + (plan.onePass ? kTileSyncFloats : 0);
  const int zChunks = plan.zChunks;
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
}

}  // namespace cineflow::process::cuda

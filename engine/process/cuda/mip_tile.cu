// The one-pass MIP kernel (process/mip.hpp) for rows of up to 256 pixels, a multiple of 4 wide:
// every voxel is read once, with all of a thread's reads in flight before it uses any, and the
// three projections come out of the same registers.
#include <cooperative_groups.h>

#include <algorithm>

#include "compute/cuda/cuda_check.hpp"
#include "compute/cuda/device_fault.hpp"
#include "process/cuda/mip_kernels.hpp"
#include "process/cuda/mip_max.hpp"

namespace cineflow::process::cuda {
namespace {

namespace cg = cooperative_groups;

constexpr int kWarp = 32;
constexpr int kLanesX = 64;  // float4 lanes per row: rows up to 256 pixels
constexpr int kYChunk = 16;  // slices loaded at once; the row-maximum fold below needs 16
constexpr int kMaxRows = 8;  // depth rows per tile (threadIdx.y); on the H100 8 beat 4 and 2
constexpr unsigned kEmpty = 0xffffffffu;  // a NaN, which every value beats in atomicFmax
constexpr std::size_t kTileBytesPerRow = sizeof(float4) * kYChunk * kLanesX;
constexpr int kClusterBlocks = 8;  // blocks whose maxima along z meet in shared memory (sm_90)
constexpr int kClusterArchitecture = 90;  // clusters exist in code compiled for compute_90 and up
constexpr int kLaunchMarks = 3;  // sync words the kernel uses (mip.cu's scratch reserves 4)

// How the blocks of one launch agree that alongZ has been emptied (see mipTileKernel):
// sync[0] names the launch that claimed the emptying, sync[1] the launch whose emptying is done,
// sync[2] a launch that gave up waiting for it.
struct LaunchMarks {
  unsigned* sync;
  unsigned launch;
  unsigned long long waitLimitNs;
  unsigned* faultWord;
  unsigned faultCode;
};

__device__ __forceinline__ float4 nan4() {
  const float n = __int_as_float(0x7fc00000);
  return make_float4(n, n, n, n);
}

__device__ __forceinline__ float4 max4Lanes(float4 a, float4 b) {
  return make_float4(mipMax(a.x, b.x), mipMax(a.y, b.y), mipMax(a.z, b.z), mipMax(a.w, b.w));
}

__device__ __forceinline__ float max4(float4 v) {
  return mipMax(mipMax(v.x, v.y), mipMax(v.z, v.w));
}

// The maximum (mipMax) into a slot that starts as kEmpty: non-negative values order as signed
// integers, negative ones in reverse as unsigned integers, and any float beats the slot's NaN
// pattern under the matching comparison (-1 as int, the largest unsigned). NaN is ignored and +0
// beats -0, as in mipMax.
__device__ __forceinline__ void atomicFmax(unsigned* slot, float value) {
  if (isnan(value)) {
    return;
  }
  if (!signbit(value)) {
    atomicMax(reinterpret_cast<int*>(slot), __float_as_int(value));
  } else {
    atomicMin(slot, __float_as_uint(value));
  }
}

__device__ __forceinline__ unsigned long long globalTimerNs() {
  unsigned long long ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}

// True once the launch's first block has emptied alongZ; false when the launch gave up on it.
//
// Why a block may wait for another here, and why the wait is bounded: the block waited for is the
// first of the launch to start, so it is running, and it publishes sync[1] before it waits for
// anything; by the time the others get here it has long done so, and the first read succeeds.
// That promise rests on the launch marks: sync shared by two launches running at once, a reused
// launch number or an overwritten scratch would leave the waiters spinning for ever, hanging the
// stream and, at its next synchronisation, the program, without a word. So the wait ends after
// waitLimitNs of global time: the first thread to give up marks the launch abandoned in sync[2],
// which releases every other waiter of the launch at once, and reports a device fault on the
// stream (compute/cuda/device_fault.hpp). The kernel then completes with alongZ incomplete, and
// the engine fails with the fault's message at its next look at the stream's errors.
__device__ bool alongZEmptied(const LaunchMarks& marks) {
  const volatile unsigned* emptied = marks.sync + 1;
  const volatile unsigned* abandoned = marks.sync + 2;
  if (*emptied == marks.launch) {
    return true;
  }
  const unsigned long long start = globalTimerNs();
  unsigned pauseNs = 32;
  for (;;) {
    __nanosleep(pauseNs);
    pauseNs = min(2 * pauseNs, 1024u);
    if (*emptied == marks.launch) {
      return true;
    }
    if (*abandoned == marks.launch) {
      return false;
    }
    if (globalTimerNs() - start > marks.waitLimitNs) {
      atomicExch(marks.sync + 2, marks.launch);
      compute::cuda::reportDeviceFault(marks.faultWord, marks.faultCode);
      return false;
    }
  }
}

// Folds count pairs of m[] across lanes `offset` apart: each lane keeps one half of the indices,
// so after the folds for offsets 16, 8, 4, 2 (counts 8, 4, 2, 1) lane L holds in m[0] the maximum
// of index (L >> 1) & 15 over the 16 lanes that share bit 0 of L: 16 shuffles instead of 80.
template <int count>
__device__ __forceinline__ void foldAcrossLanes(float (&m)[kYChunk], int lane, int offset) {
  const bool upper = (lane & offset) != 0;
#pragma unroll
  for (int i = 0; i < count; ++i) {
    const float send = upper ? m[i] : m[i + count];
    const float keep = upper ? m[i + count] : m[i];
    m[i] = mipMax(keep, __shfl_xor_sync(0xffffffffu, send, offset));
  }
}

// This block's share of the maxima along z of slices [y0, y0 + 16), folded with those of the other
// blocks of its cluster through distributed shared memory, then into alongZ (atomicFmax) once the
// launch's first block has emptied it: each block takes 1/clusterSize of the plane, so an element
// sees one atomic per cluster, not per block.
__device__ void foldAlongZ(float4* blockZ, int ny, int nx4, int y0, int thread, int threads,
                           const LaunchMarks& marks, unsigned* alongZ) {
#if __CUDA_ARCH__ >= 900
  cg::cluster_group cluster = cg::this_cluster();
  const int blocks = static_cast<int>(cluster.num_blocks());
  const int rank = static_cast<int>(cluster.block_rank());
  cluster.sync();  // every block of the cluster has its share in shared memory
#else
  const int blocks = 1;
  const int rank = 0;
  __syncthreads();
#endif
  const int items = min(kYChunk, ny - y0) * nx4;
  const int begin = items * rank / blocks;
  const int end = items * (rank + 1) / blocks;
  bool waited = false;
  for (int i = begin + thread; i < end; i += threads) {
    float4 m = blockZ[i];
#if __CUDA_ARCH__ >= 900
#pragma unroll
    for (int b = 0; b < kClusterBlocks; ++b) {
      if (b < blocks && b != rank) {
        m = max4Lanes(m, cluster.map_shared_rank(blockZ, b)[i]);
      }
    }
#endif
    // Waiting here, in each thread that has atomics to do, keeps the flag's latency off the
    // cluster barrier; by now the first block has long emptied alongZ. A thread that gives up
    // skips its atomics but still meets the barrier below.
    if (!waited) {
      if (!alongZEmptied(marks)) {
        break;
      }
      waited = true;
      __threadfence();
    }
    unsigned* slot = alongZ + (static_cast<std::size_t>(y0) * nx4 + i) * 4;
    atomicFmax(slot + 0, m.x);
    atomicFmax(slot + 1, m.y);
    atomicFmax(slot + 2, m.z);
    atomicFmax(slot + 3, m.w);
  }
#if __CUDA_ARCH__ >= 900
  cluster.sync();  // nobody reads this block's share any more: it may be rewritten or freed
#else
  __syncthreads();
#endif
}

// Block b owns depth rows [b * nz / gridDim.x, (b + 1) * nz / gridDim.x), taken blockDim.y rows at
// a time, for 16 slices at a time; thread (lx, r) reads float4 lx of row r in all 16 slices at
// once. Along y the maxima stay in registers (and meet the earlier slices' in alongY when there
// are more than 16); along x each warp folds its half of 16 rows by shuffles and the halves meet
// in shared memory; along z the rows meet in shared memory (blockZ), then the blocks' maxima meet
// in alongZ through foldAlongZ. The first block to start empties alongZ for them: it swaps
// `launch` into sync[0] (no other block sees anything but `launch` there afterwards), then
// publishes `launch` in sync[1] once alongZ is empty. Each launch passes a new `launch` value
// (never 0), so sync needs no reset, and no block waits for one that has not started (the wait
// is bounded all the same: alongZEmptied).
__global__ void __launch_bounds__(kLanesX* kMaxRows, 1)
    mipTileKernel(const float4* __restrict__ volume, int ny, int nz, int nx4,
                  float4* __restrict__ alongY, float* __restrict__ alongX, LaunchMarks marks,
                  unsigned* __restrict__ alongZ) {
  extern __shared__ float4 shared[];
  float4* blockZ = shared;                    // [kYChunk][nx4]: this block's maxima along z
  float4* tile = shared + kYChunk * kLanesX;  // [kYChunk][blockDim.y][kLanesX]
  __shared__ float rowHalves[kYChunk][kMaxRows][2];
  __shared__ bool emptiesAlongZ;
  const int rows = blockDim.y;
  const int lx = threadIdx.x;
  const int r = threadIdx.y;
  const int lane = lx % kWarp;
  const int thread = r * kLanesX + lx;
  const int threads = rows * kLanesX;
  const int rowBegin = static_cast<int>(static_cast<long long>(blockIdx.x) * nz / gridDim.x);
  const int rowEnd = static_cast<int>(static_cast<long long>(blockIdx.x + 1) * nz / gridDim.x);
  const std::size_t slice = static_cast<std::size_t>(nz) * nx4;

  if (thread == 0) {
    emptiesAlongZ = atomicExch(marks.sync, marks.launch) != marks.launch;
  }
  __syncthreads();
  if (emptiesAlongZ) {
    const int plane = ny * nx4 * 4;
    for (int i = thread; i < plane; i += threads) {
      alongZ[i] = kEmpty;
    }
    __threadfence();
    __syncthreads();
    if (thread == 0) {
      atomicExch(marks.sync + 1, marks.launch);
    }
  }

  for (int y0 = 0; y0 < ny; y0 += kYChunk) {
    for (int i = thread; i < kYChunk * nx4; i += threads) {
      blockZ[i] = nan4();
    }
    for (int z0 = rowBegin; z0 < rowEnd; z0 += rows) {
      const int z = z0 + r;
      const bool active = z < rowEnd && lx < nx4;
      const float4* column = volume + static_cast<std::size_t>(z) * nx4 + lx;
      float4 v[kYChunk];
#pragma unroll
      for (int j = 0; j < kYChunk; ++j) {
        v[j] = (active && y0 + j < ny) ? __ldg(column + (y0 + j) * slice) : nan4();
      }
      float4 yMax = nan4();
      float m[kYChunk];
#pragma unroll
      for (int j = 0; j < kYChunk; ++j) {
        yMax = max4Lanes(yMax, v[j]);
        m[j] = max4(v[j]);
        tile[(j * rows + r) * kLanesX + lx] = v[j];
      }
      if (active) {
        float4* out = alongY + static_cast<std::size_t>(z) * nx4 + lx;
        *out = y0 == 0 ? yMax : max4Lanes(*out, yMax);
      }
      foldAcrossLanes<8>(m, lane, 16);
      foldAcrossLanes<4>(m, lane, 8);
      foldAcrossLanes<2>(m, lane, 4);
      foldAcrossLanes<1>(m, lane, 2);
      m[0] = mipMax(m[0], __shfl_xor_sync(0xffffffffu, m[0], 1));
      if ((lane & 1) == 0) {
        rowHalves[(lane >> 1) & 15][r][lx / kWarp] = m[0];
      }
      __syncthreads();
      for (int i = thread; i < kYChunk * rows; i += threads) {
        const int j = i / rows;
        const int row = z0 + i % rows;
        if (y0 + j < ny && row < rowEnd) {
          alongX[static_cast<std::size_t>(y0 + j) * nz + row] =
              mipMax(rowHalves[j][i % rows][0], rowHalves[j][i % rows][1]);
        }
      }
      // Each thread folds the same blockZ elements every time, so only the tile needs the barrier.
      for (int i = thread; i < kYChunk * nx4; i += threads) {
        const int j = i / nx4;
        const int q = i % nx4;
        float4 zMax = blockZ[i];
        for (int row = 0; row < rows; ++row) {
          zMax = max4Lanes(zMax, tile[(j * rows + row) * kLanesX + q]);
        }
        blockZ[i] = zMax;
      }
      __syncthreads();  // the tile is rewritten by the next rows
    }
    foldAlongZ(blockZ, ny, nx4, y0, thread, threads, marks, alongZ);
  }
}

// The kernel's launch configuration for `blocks` blocks; `cluster` receives the cluster
// attribute the configuration points to (none when plan.cluster is 1).
cudaLaunchConfig_t launchConfig(const MipTilePlan& plan, int blocks, cudaStream_t stream,
                                cudaLaunchAttribute& cluster) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(kLanesX, plan.rows);
  config.dynamicSmemBytes = plan.sharedBytes;
  config.stream = stream;
  cluster = {};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = plan.cluster;
  cluster.val.clusterDim.y = 1;
  cluster.val.clusterDim.z = 1;
  config.attrs = &cluster;
  config.numAttrs = plan.cluster > 1 ? 1 : 0;
  return config;
}

}  // namespace

bool mipTileFits(int nx) {
  return nx > 0 && nx % 4 == 0 && nx / 4 <= kLanesX;
}

MipTilePlan planMipTile(int nz, bool allowClusters) {
  int device = 0;
  compute::cuda::check(cudaGetDevice(&device), "cudaGetDevice");
  int sharedOptIn = 0;
  int clusterLaunch = 0;
  compute::cuda::check(
      cudaDeviceGetAttribute(&sharedOptIn, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
      "querying the shared memory per block");
  compute::cuda::check(cudaDeviceGetAttribute(&clusterLaunch, cudaDevAttrClusterLaunch, device),
                       "querying cluster support");
  // The code the runtime picked for this device: its cluster path exists only where it was
  // compiled for compute_90 or newer (a compute_80 PTX JIT-compiled for an H100 has none).
  cudaFuncAttributes kernel{};
  compute::cuda::check(cudaFuncGetAttributes(&kernel, mipTileKernel),
                       "loading the MIP kernel for this device");
  MipTilePlan plan;
  // blockZ takes one row's share; static shared memory (rowHalves) stays under another.
  const int rowsThatFit =
      static_cast<int>(static_cast<std::size_t>(sharedOptIn) / kTileBytesPerRow) - 2;
  plan.rows = std::clamp(rowsThatFit, 1, kMaxRows);
  plan.sharedBytes = static_cast<std::size_t>(plan.rows + 1) * kTileBytesPerRow;
  plan.cluster = allowClusters && clusterLaunch != 0 && kernel.ptxVersion >= kClusterArchitecture
                     ? kClusterBlocks
                     : 1;
  compute::cuda::check(
      cudaFuncSetAttribute(mipTileKernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                           static_cast<int>(plan.sharedBytes)),
      "allowing the MIP kernel its shared memory", plan.sharedBytes);
  // As many blocks as are resident at once (one wave: every block has its reads in flight from
  // the start), but no more than the rows need.
  int resident = 0;
  if (plan.cluster > 1) {
    cudaLaunchAttribute cluster{};
    const cudaLaunchConfig_t config = launchConfig(plan, plan.cluster, nullptr, cluster);
    int clusters = 0;
    compute::cuda::check(cudaOccupancyMaxActiveClusters(&clusters, mipTileKernel, &config),
                         "querying the MIP kernel's resident clusters");
    resident = clusters * plan.cluster;
  } else {
    int sms = 0;
    int perSm = 0;
    compute::cuda::check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device),
                         "querying the multiprocessor count");
    compute::cuda::check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                             &perSm, mipTileKernel, kLanesX * plan.rows, plan.sharedBytes),
                         "querying the MIP kernel's resident blocks");
    resident = sms * perSm;
  }
  const int needed = (nz + plan.rows - 1) / plan.rows;
  const int blocks = std::max(1, std::min(resident, needed));
  plan.blocks = (blocks + plan.cluster - 1) / plan.cluster * plan.cluster;
  return plan;
}

void prepareMipTileSync(unsigned* sync) {
  compute::cuda::check(cudaMemset(sync, 0, kLaunchMarks * sizeof(unsigned)),
                       "clearing the MIP kernel's launch marks", kLaunchMarks * sizeof(unsigned));
}

void enqueueMipTile(cudaStream_t stream, const MipTilePlan& plan, const float* volume, int ny,
                    int nz, int nx, unsigned* sync, unsigned launch, unsigned* faultWord,
                    float* alongY, float* alongZ, float* alongX) {
  static const unsigned gaveUp = compute::cuda::registerDeviceFault(
      "the MIP kernel gave up waiting for its projection along z to be emptied (its launch marks "
      "were not those of one launch: scratch shared by concurrent launches, or overwritten); "
      "that volume's en-face MIP is incomplete");
  const LaunchMarks marks{sync, launch, plan.waitLimitNs, faultWord, gaveUp};
  cudaLaunchAttribute cluster{};
  const cudaLaunchConfig_t config = launchConfig(plan, plan.blocks, stream, cluster);
  compute::cuda::check(
      cudaLaunchKernelEx(&config, mipTileKernel, reinterpret_cast<const float4*>(volume), ny, nz,
                         nx / 4, reinterpret_cast<float4*>(alongY), alongX, marks,
                         reinterpret_cast<unsigned*>(alongZ)),
      "launching mipTileKernel");
  compute::cuda::checkLaunch("mipTileKernel", stream);
}

}  // namespace cineflow::process::cuda

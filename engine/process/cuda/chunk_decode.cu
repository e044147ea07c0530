// CUDA twin of process/cpu/chunk_decode.cpp (process/chunk_decoder.hpp holds the contract).

#include <algorithm>
#include <cstdint>

#include "compute/annotate.hpp"
#include "compute/cuda/cuda_check.hpp"
#include "compute/cuda/cuda_stream.hpp"
#include "process/cuda/lz4_device.hpp"
#include "process/cuda/stage_kernels.hpp"

namespace cineflow::process::cuda {
namespace {

constexpr unsigned kWarp = 32;
// Each warp holds two of its LZ4 blocks in shared memory (decoded, then unshuffled); a CUDA block
// gets as many warps as kSharedBudget holds, up to kMaxWarpsPerBlock: 2 at the default 8 KiB
// blocks, 8 at 2 KiB (a recording's --record-block-size), so small blocks fill the
// multiprocessors with warps.
constexpr std::size_t kSharedBudget = 32 * 1024;
constexpr unsigned kMaxWarpsPerBlock = 8;
constexpr unsigned kFullMask = 0xffffffffu;

// One LZ4 block into `dst` (shared memory) by one warp: lane 0 parses each sequence with the
// host-tested lz4NextSequence, the warp copies its literals and match. Returns the decoded size or
// an error code (every lane the same).
__device__ std::int64_t warpDecodeLz4(const std::uint8_t* __restrict__ src, std::size_t srcSize,
                                      std::uint8_t* dst, std::size_t dstSize, unsigned lane) {
  std::size_t in = 0, out = 0;  // `in` is lane 0's
  for (;;) {
    Lz4Sequence sequence;
    long long code = 0;
    int finished = 0;
    if (lane == 0) {
      if (in >= srcSize) {
        finished = 1;  // a block ends in a literals-only sequence: ended without one
      } else {
        code = lz4NextSequence(src, srcSize, in, out, dstSize, sequence);
      }
    }
    code = __shfl_sync(kFullMask, code, 0);
    finished = __shfl_sync(kFullMask, finished, 0);
    if (code != 0) {
      return code;
    }
    if (finished != 0) {
      return kLz4Truncated;
    }
    const auto literalsFrom = static_cast<std::size_t>(
        __shfl_sync(kFullMask, static_cast<unsigned long long>(sequence.literalsFrom), 0));
    const auto literals = static_cast<std::size_t>(
        __shfl_sync(kFullMask, static_cast<unsigned long long>(sequence.literals), 0));
    const auto offset = static_cast<std::size_t>(
        __shfl_sync(kFullMask, static_cast<unsigned long long>(sequence.matchOffset), 0));
    const auto match = static_cast<std::size_t>(
        __shfl_sync(kFullMask, static_cast<unsigned long long>(sequence.match), 0));
    const int last = __shfl_sync(kFullMask, sequence.last ? 1 : 0, 0);
    for (std::size_t i = lane; i < literals; i += kWarp) {
      dst[out + i] = src[literalsFrom + i];
    }
    out += literals;
    __syncwarp();
    // Every byte of a match comes from before it (period `offset` when they overlap).
    for (std::size_t i = lane; i < match; i += kWarp) {
      dst[out + i] = dst[out - offset + i % offset];
    }
    out += match;
    __syncwarp();
    if (last != 0) {
      break;
    }
  }
  return out == dstSize ? static_cast<std::int64_t>(out) : kLz4WrongSize;
}

// `bytes` from shared memory to global, in 16-byte stores when both sides allow.
__device__ void warpCopyOut(const std::uint8_t* from, std::uint8_t* to, std::size_t bytes,
                            unsigned lane) {
  if (((reinterpret_cast<std::uintptr_t>(to) | reinterpret_cast<std::uintptr_t>(from) | bytes) &
       15u) == 0) {
    const auto* from16 = reinterpret_cast<const uint4*>(from);
    auto* to16 = reinterpret_cast<uint4*>(to);
    for (std::size_t i = lane; i < bytes / 16; i += kWarp) {
      to16[i] = from16[i];
    }
  } else {
    for (std::size_t i = lane; i < bytes; i += kWarp) {
      to[i] = from[i];
    }
  }
}

__global__ void decodeChunkKernel(const std::uint8_t* __restrict__ staged,
                                  std::uint32_t tableOffset, std::uint8_t* __restrict__ frame,
                                  std::size_t frameBytes, int* status) {
  extern __shared__ uint4 sharedWords[];
  const StagedChunkTable table = *reinterpret_cast<const StagedChunkTable*>(staged + tableOffset);
  const auto* entries =
      reinterpret_cast<const StagedBlock*>(staged + tableOffset + sizeof(StagedChunkTable));
  const unsigned warp = threadIdx.x / kWarp, lane = threadIdx.x % kWarp;
  const std::uint32_t b = blockIdx.x * (blockDim.x / kWarp) + warp;
  if (b == table.blocks) {  // one warp more than blocks: the tail
    for (std::size_t i = lane; i < table.tailBytes; i += kWarp) {
      frame[frameBytes - table.tailBytes + i] = staged[table.tailOffset + i];
    }
    return;
  }
  if (b > table.blocks) {
    return;
  }
  const StagedBlock entry = entries[b];
  const std::size_t decoded = b + 1 == table.blocks ? table.lastBlockBytes : table.blockBytes;
  std::uint8_t* out = frame + static_cast<std::size_t>(b) * table.blockBytes;
  const std::uint8_t* src = staged + entry.offset;
  if (entry.stored != 0) {
    for (std::size_t i = lane; i < decoded; i += kWarp) {
      out[i] = src[i];
    }
    return;
  }
  auto* shared = reinterpret_cast<std::uint8_t*>(sharedWords);
  std::uint8_t* lz4Out = shared + static_cast<std::size_t>(warp) * 2 * table.blockBytes;
  std::uint8_t* unshuffled = lz4Out + table.blockBytes;
  const std::int64_t got = warpDecodeLz4(src, entry.compressedBytes, lz4Out, decoded, lane);
  if (got < 0) {
    if (lane == 0) {  // the first failed block in block order, as the CPU decoder reports it
      const int mine = chunkStatus(b, got);
      int seen = atomicCAS(status, 0, mine);
      while (seen != 0 && mine < seen) {
        const int before = atomicCAS(status, seen, mine);
        seen = before == seen ? 0 : before;
      }
    }
    return;
  }
  if (table.elementBytes == 0) {
    warpCopyOut(lz4Out, out, decoded, lane);
    return;
  }
  const std::size_t elements = decoded / table.elementBytes;
  const std::size_t rowBytes = elements / 8;
  for (std::size_t pair = lane; pair < rowBytes * table.elementBytes; pair += kWarp) {
    unshuffleGroupByte(lz4Out, unshuffled, elements, table.elementBytes, pair % rowBytes,
                       pair / rowBytes);
  }
  __syncwarp();
  warpCopyOut(unshuffled, out, decoded, lane);
}

}  // namespace

void enqueueChunkDecode(compute::Stream& stream, const std::byte* staged, std::size_t tableOffset,
                        std::uint32_t blocks, std::uint32_t blockBytes, std::byte* frame,
                        std::size_t frameBytes, int* status) {
  const compute::ScopedRange range("decode");
  const cudaStream_t s = compute::cuda::asCudaStream(stream).get();
  compute::cuda::check(cudaMemsetAsync(status, 0, sizeof(int), s), "clear the decode status");
  const auto warps = static_cast<unsigned>(std::clamp<std::size_t>(
      kSharedBudget / (2 * std::max<std::size_t>(blockBytes, 1)), 1, kMaxWarpsPerBlock));
  const unsigned grid = (blocks + 1 + warps - 1) / warps;  // + the tail's warp
  const std::size_t shared = std::size_t{warps} * 2 * blockBytes;
  decodeChunkKernel<<<grid, warps * kWarp, shared, s>>>(
      reinterpret_cast<const std::uint8_t*>(staged), static_cast<std::uint32_t>(tableOffset),
      reinterpret_cast<std::uint8_t*>(frame), frameBytes, status);
  compute::cuda::checkLaunch("decodeChunkKernel", s);
}

}  // namespace cineflow::process::cuda

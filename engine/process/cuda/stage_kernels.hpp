#pragma once
// CUDA twins of the modality-neutral CPU stage kernels (process/cpu/*.hpp), behind the same stage
// contracts (process/log_compress.hpp, mip.hpp); each modality declares its own next to its
// kernels (ultrasound/cuda/ultrasound_kernels.hpp, oct/cuda/...). Kernels live in the .cu files;
// these host launchers take a stream and device pointers, never synchronise and never allocate
// after construction. Compiled only when CINEFLOW_HAVE_CUDA.

#include <cstddef>
#include <cstdint>

#include "compute/backend.hpp"
#include "compute/buffer.hpp"
#include "process/cuda/mip_plan.hpp"

namespace cineflow::process::cuda {

void enqueueLogCompress(compute::Stream& stream, const float* in, float* out, std::size_t count,
                        float floor);

// Staged compressed frames (process/chunk_decoder.hpp): one warp per LZ4 block, `blocks` of at
// most `blockBytes` decoded bytes (<= kMaxStagedBlockBytes), plus one warp for the tail.
void enqueueChunkDecode(compute::Stream& stream, const std::byte* staged, std::size_t tableOffset,
                        std::uint32_t blocks, std::uint32_t blockBytes, std::byte* frame,
                        std::size_t frameBytes, int* status);

// MIPs (process/mip.hpp). planMips queries the current device. The projector owns `scratch`
// (plan.scratchFloats floats, 16-byte aligned), which prepareMipScratch readies once,
// synchronously, and numbers its launches: `launch` differs from the previous enqueue's and is
// never 0. Rows that the one-pass kernel does not take (or misaligned spans), and every volume
// when `multiPass` (MipProjector's "multi-pass" variant), go through three passes with partial
// maxima along z in the scratch.
MipPlan planMips(int ny, int nz, int nx);
void prepareMipScratch(const MipPlan& plan, float* scratch);
void enqueueMips(compute::Stream& stream, const MipPlan& plan, unsigned launch, const float* volume,
                 int ny, int nz, int nx, float* scratch, float* alongY, float* alongZ,
                 float* alongX, bool multiPass = false);

// One thread per 8^3 brick: its largest value (process/volume_bricks.hpp, cuda/brick_max.hpp).
void enqueueBrickMaxima(compute::Stream& stream, const float* volume, int ny, int nz, int nx,
                        float* bricks);

}  // namespace cineflow::process::cuda

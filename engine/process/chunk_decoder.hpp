#pragma once
// Decoding a staged compressed frame (staged_chunk.hpp) into the frame slot, the first step of a
// compressed replay's frame before the modality's stages.
//
// Contract
//   input   the staged bytes (chunk + block table) in device memory, and their StagedChunk.
//   output  the frame, exactly frameBytes, device memory; `status` (one int of device memory)
//           0, or chunkStatus() of the first block (in block order) that could not be decoded
//           (then the frame's bytes are not to be used). Every length and offset is checked: a
//           damaged chunk never reads or writes outside its buffers. The CUDA parser is stricter
//           than none but laxer than liblz4 about LZ4's end-of-block rules: a block liblz4
//           refuses may decode there (to its exact size, inside its buffers); the chunk's
//           checksum, checked before staging, is what catches damage.
//   CUDA    one warp per LZ4 block: one lane parses the sequences (process/cuda/lz4_device.hpp),
//           the warp copies literals and matches into shared memory, then undoes the bit shuffle
//           there and writes the block out in 16-byte stores.
//   CPU     the blocks in parallel on the pool: liblz4, then the bit unshuffle (the CPU decoder
//           of bitshuffle_lz4.hpp, block by block); the GPU kernel's oracle in the tests.
//   stream  enqueue() only enqueues work on `stream`: it never allocates or synchronises.

#include <cstddef>
#include <string>

#include "compute/backend.hpp"
#include "compute/buffer.hpp"
#include "process/staged_chunk.hpp"

namespace cineflow::process {

// "block 3 of 256 is not valid LZ4 (a length runs past the block's end)" for a decode status.
std::string chunkStatusText(int status, std::uint32_t blocks);

class ChunkDecoder {
 public:
  void configure(compute::Backend& backend, std::size_t frameBytes);
  // `staged` must hold what stageChunk() wrote (the decoders trust its table: stageChunk checked
  // it against the chunk and the frame). Throws std::invalid_argument (before enqueuing anything)
  // for a frame span of the wrong size or nothing staged.
  void enqueue(compute::Stream& stream, const std::byte* staged, const StagedChunk& chunk,
               compute::DeviceSpan<std::byte> frame, int* status) const;

 private:
  compute::BackendKind kind_ = compute::BackendKind::Cpu;
  std::size_t frameBytes_ = 0;
};

}  // namespace cineflow::process

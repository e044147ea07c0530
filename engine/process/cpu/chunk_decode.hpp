#pragma once
// CPU backend of ChunkDecoder (process/chunk_decoder.hpp holds the contract).

#include <cstddef>

#include "compute/backend.hpp"

namespace cineflow::process::cpu {

// Enqueues decodeStagedChunk on `stream`; *status gets its result.
void enqueueChunkDecode(compute::Stream& stream, const std::byte* staged, std::size_t tableOffset,
                        std::byte* frame, std::size_t frameBytes, int* status);
// Decodes the staged chunk (staged_chunk.hpp) into `frame` (frameBytes), its blocks in parallel
// on the pool; returns 0 or the chunkStatus of the first block (in block order) that failed.
int decodeStagedChunk(const std::byte* staged, std::size_t tableOffset, std::byte* frame,
                      std::size_t frameBytes);

}  // namespace cineflow::process::cpu

#pragma once
// A compressed frame staged for decoding where it is processed: the acquisition thread reads a
// recording's chunk as stored into a host ring slot (acquire/stored_frame.hpp), and behind it
// writes the table of its blocks (process/cuda/lz4_device.hpp, StagedChunkTable), so that a
// decoder starts every block at once instead of walking the chunk block by block. The upload
// copies chunk and table in one piece; ChunkDecoder (chunk_decoder.hpp) decodes them into the
// frame slot.
//
// Slot layout: [the chunk as stored][padding to 16 bytes][StagedChunkTable][StagedBlock x blocks]

#include <cstddef>
#include <cstdint>
#include <span>

#include "acquire/stored_frame.hpp"
#include "process/bitshuffle_lz4.hpp"

namespace cineflow::process {

// Blocks a decoder takes from a staged chunk: up to 8 KiB (the bitshuffle filter's default, and
// recordings' LZ4 block), so that a GPU warp decodes one in shared memory; at least 1 KiB, which
// bounds the table. Chunks with other blocks are decoded by the acquisition thread instead.
inline constexpr std::size_t kMaxStagedBlockBytes = 8192;
inline constexpr std::size_t kMinStagedBlockBytes = 1024;

struct StagedChunk {
  std::size_t bytes = 0;  // chunk and table; 0: the slot holds a decoded frame, not a chunk
  std::size_t chunkBytes = 0;
  std::size_t tableOffset = 0;
  std::uint32_t blocks = 0, blockBytes = 0;
};

// Bytes a host ring slot (and the device's staging buffer) needs for a staged chunk of `format`
// for frames of `frameBytes`.
std::size_t stagedCapacity(const acquire::StoredFormat& format, std::size_t frameBytes);

// Checks the chunk in slot[0, chunkBytes) against `format` and the frame's size and writes its
// table behind it. Returns false (nothing staged) when its blocks are outside the sizes above or
// the table does not fit: decode that frame on the host. Throws ChunkError for a damaged chunk
// (readChunkLayout names what is wrong). `layout` is the caller's scratch, kept between frames.
bool stageChunk(std::span<std::byte> slot, std::size_t chunkBytes,
                const acquire::StoredFormat& format, std::size_t frameBytes, ChunkLayout& layout,
                StagedChunk& staged);

}  // namespace cineflow::process

#include "process/staged_chunk.hpp"

#include <cstring>
#include <limits>

#include "process/chunk_codec.hpp"
#include "process/cuda/lz4_device.hpp"

namespace cineflow::process {
namespace {

constexpr std::size_t kTableAlign = 16;

std::size_t alignUp(std::size_t bytes) {
  return (bytes + kTableAlign - 1) / kTableAlign * kTableAlign;
}

}  // namespace

std::size_t stagedCapacity(const acquire::StoredFormat& format, std::size_t frameBytes) {
  return alignUp(format.maxChunkBytes) + sizeof(cuda::StagedChunkTable) +
         sizeof(cuda::StagedBlock) * (frameBytes / kMinStagedBlockBytes + 1);
}

bool stageChunk(std::span<std::byte> slot, std::size_t chunkBytes,
                const acquire::StoredFormat& format, std::size_t frameBytes, ChunkLayout& layout,
                StagedChunk& staged) {
  staged = {};
  readChunkLayout(slot.first(chunkBytes), format.codec, format.elementBytes, frameBytes, layout);
  const std::size_t tableOffset = alignUp(chunkBytes);
  const std::size_t bytes = tableOffset + sizeof(cuda::StagedChunkTable) +
                            sizeof(cuda::StagedBlock) * layout.blocks.size();
  if (layout.blockBytes > kMaxStagedBlockBytes ||
      (layout.blockBytes < kMinStagedBlockBytes && layout.blocks.size() > 1) ||
      bytes > slot.size() || chunkBytes > std::numeric_limits<std::uint32_t>::max()) {
    return false;
  }
  cuda::StagedChunkTable table{};
  table.blocks = static_cast<std::uint32_t>(layout.blocks.size());
  table.blockBytes = static_cast<std::uint32_t>(layout.blockBytes);
  table.lastBlockBytes =
      layout.blocks.empty() ? 0 : static_cast<std::uint32_t>(layout.blocks.back().decodedBytes);
  table.elementBytes = format.codec == acquire::ChunkCodec::BitshuffleLz4
                           ? static_cast<std::uint32_t>(format.elementBytes)
                           : 0;
  table.tailOffset = static_cast<std::uint32_t>(layout.tailOffset);
  table.tailBytes = static_cast<std::uint32_t>(layout.tailBytes);
  std::byte* at = slot.data() + tableOffset;
  std::memcpy(at, &table, sizeof table);
  at += sizeof table;
  for (const ChunkLayout::Block& block : layout.blocks) {
    const cuda::StagedBlock entry{static_cast<std::uint32_t>(block.offset),
                                  static_cast<std::uint32_t>(block.compressedBytes),
                                  block.stored ? 1u : 0u, 0u};
    std::memcpy(at, &entry, sizeof entry);
    at += sizeof entry;
  }
  staged = {bytes, chunkBytes, tableOffset, table.blocks, table.blockBytes};
  return true;
}

}  // namespace cineflow::process

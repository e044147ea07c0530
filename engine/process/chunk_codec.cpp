#include "process/chunk_codec.hpp"

#include <lz4.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "process/big_endian.hpp"

namespace cineflow::process {
namespace {

constexpr std::size_t kHeaderBytes = 12;  // decoded size, block size

[[noreturn]] void refuse(const std::string& why) {
  throw ChunkError("LZ4 chunk: " + why);
}

std::size_t blocksOf(std::size_t bytes, std::size_t blockBytes) {
  return (bytes + blockBytes - 1) / blockBytes;
}

void readLz4Layout(std::span<const std::byte> chunk, std::size_t expectedBytes,
                   ChunkLayout& layout) {
  const std::size_t blockBytes = readChunkHeader(chunk, expectedBytes, "LZ4", layout);
  if (blockBytes == 0) {
    refuse("its block size is 0");
  }
  layout.blockBytes = blockBytes;
  layout.blockElements = 0;
  requireRoomForBlocks(chunk, blocksOf(expectedBytes, blockBytes), "LZ4");
  layout.blocks.resize(blocksOf(expectedBytes, blockBytes));
  for (std::size_t b = 0; b < layout.blocks.size(); ++b) {
    layout.blocks[b].decodedBytes = std::min(blockBytes, expectedBytes - b * blockBytes);
  }
  const std::size_t at = readBlockTable(chunk, "LZ4", layout);
  for (ChunkLayout::Block& block : layout.blocks) {
    block.stored = block.compressedBytes == block.decodedBytes;  // did not compress
  }
  layout.tailOffset = at;
  layout.tailBytes = 0;
  if (at != chunk.size()) {
    refuse(std::to_string(chunk.size() - at) + " bytes after the last block");
  }
}

void decodeLz4(std::span<const std::byte> chunk, std::span<std::byte> out, ChunkLayout& layout) {
  readLz4Layout(chunk, out.size(), layout);
  std::size_t written = 0;
  for (std::size_t b = 0; b < layout.blocks.size(); ++b) {
    const ChunkLayout::Block& block = layout.blocks[b];
    if (block.stored) {
      if (block.decodedBytes > 0) {  // out.data() may be null for an empty frame
        std::memcpy(out.data() + written, chunk.data() + block.offset, block.decodedBytes);
      }
    } else {
      decodeLz4Block(chunk, layout, b, out.data() + written, "LZ4");
    }
    written += block.decodedBytes;
  }
}

}  // namespace

unsigned filterId(acquire::ChunkCodec codec) noexcept {
  switch (codec) {
    case acquire::ChunkCodec::BitshuffleLz4:
      return kBitshuffleFilterId;
    case acquire::ChunkCodec::Lz4:
      return kLz4FilterId;
    case acquire::ChunkCodec::None:
      break;
  }
  return 0;
}

std::size_t lz4ChunkBound(std::size_t bytes, std::size_t blockBytes) {
  const std::size_t blocks = std::max<std::size_t>(1, blocksOf(bytes, blockBytes));
  const std::size_t perBlock = std::max<std::size_t>(
      static_cast<std::size_t>(LZ4_compressBound(static_cast<int>(std::min(bytes, blockBytes)))),
      std::min(bytes, blockBytes));
  return kHeaderBytes + blocks * (4 + perBlock);
}

std::size_t encodeLz4Chunk(std::span<const std::byte> data, std::vector<std::byte>& out,
                           std::size_t blockBytes) {
  if (blockBytes == 0 || blockBytes > (std::size_t{1} << 30)) {
    refuse("a block of " + std::to_string(blockBytes) + " bytes");
  }
  out.resize(lz4ChunkBound(data.size(), blockBytes));
  writeBigEndian(out.data(), data.size(), 8);
  writeBigEndian(out.data() + 8, blockBytes, 4);
  std::size_t at = kHeaderBytes;
  for (std::size_t from = 0; from < data.size(); from += blockBytes) {
    const std::size_t bytes = std::min(blockBytes, data.size() - from);
    int written =
        LZ4_compress_default(reinterpret_cast<const char*>(data.data() + from),
                             reinterpret_cast<char*>(out.data() + at + 4), static_cast<int>(bytes),
                             static_cast<int>(out.size() - at - 4));
    if (written <= 0 || static_cast<std::size_t>(written) >= bytes) {
      // Did not compress: the block's bytes as they are, which readers tell by the size.
      std::memcpy(out.data() + at + 4, data.data() + from, bytes);
      written = static_cast<int>(bytes);
    }
    writeBigEndian(out.data() + at, static_cast<std::uint64_t>(written), 4);
    at += 4 + static_cast<std::size_t>(written);
  }
  out.resize(at);
  return at;
}

std::size_t encodeChunk(std::span<const std::byte> data, acquire::ChunkCodec codec,
                        std::size_t elementBytes, std::vector<std::byte>& out,
                        std::size_t blockBytes) {
  if (const std::string problem = chunkBlockProblem(codec, elementBytes, blockBytes);
      !problem.empty()) {
    throw ChunkError(problem);
  }
  switch (codec) {
    case acquire::ChunkCodec::BitshuffleLz4:
      return encodeBitshuffleLz4(data, elementBytes, out,
                                 chunkBlockBytes(codec, elementBytes, blockBytes) / elementBytes);
    case acquire::ChunkCodec::Lz4:
      return encodeLz4Chunk(data, out, chunkBlockBytes(codec, elementBytes, blockBytes));
    case acquire::ChunkCodec::None:
      break;
  }
  throw ChunkError("no codec to encode a chunk with");
}

std::size_t chunkBound(std::size_t bytes, acquire::ChunkCodec codec, std::size_t elementBytes,
                       std::size_t blockBytes) {
  switch (codec) {
    case acquire::ChunkCodec::BitshuffleLz4:
      return bitshuffleLz4Bound(bytes, elementBytes,
                                blockBytes / std::max<std::size_t>(1, elementBytes));
    case acquire::ChunkCodec::Lz4:
      return lz4ChunkBound(bytes, chunkBlockBytes(codec, elementBytes, blockBytes));
    case acquire::ChunkCodec::None:
      break;
  }
  return bytes;
}

std::size_t chunkBlockBytes(acquire::ChunkCodec codec, std::size_t elementBytes,
                            std::size_t blockBytes) {
  if (blockBytes > 0) {
    return blockBytes;
  }
  const std::size_t element = std::max<std::size_t>(1, elementBytes);
  return codec == acquire::ChunkCodec::BitshuffleLz4 ? defaultBlockElements(element) * element
                                                     : kLz4RecordBlockBytes;
}

std::string chunkBlockProblem(acquire::ChunkCodec codec, std::size_t elementBytes,
                              std::size_t blockBytes) {
  if (blockBytes == 0 || codec == acquire::ChunkCodec::None) {
    return {};
  }
  if (blockBytes < kMinChunkBlockBytes || blockBytes > kMaxChunkBlockBytes) {
    return "a block of " + std::to_string(blockBytes) + " bytes: blocks are " +
           std::to_string(kMinChunkBlockBytes) + " to " + std::to_string(kMaxChunkBlockBytes) +
           " bytes";
  }
  const std::size_t group = 8 * std::max<std::size_t>(1, elementBytes);
  if (codec == acquire::ChunkCodec::BitshuffleLz4 && blockBytes % group != 0) {
    return "a block of " + std::to_string(blockBytes) +
           " bytes: the bit shuffle's blocks are whole groups of 8 elements (a multiple of " +
           std::to_string(group) + " bytes)";
  }
  return {};
}

void readChunkLayout(std::span<const std::byte> chunk, acquire::ChunkCodec codec,
                     std::size_t elementBytes, std::size_t expectedBytes, ChunkLayout& layout) {
  if (codec == acquire::ChunkCodec::Lz4) {
    readLz4Layout(chunk, expectedBytes, layout);
  } else {
    readChunkLayout(chunk, elementBytes, expectedBytes, layout);
  }
}

void decodeChunk(std::span<const std::byte> chunk, acquire::ChunkCodec codec,
                 std::size_t elementBytes, std::span<std::byte> out, ChunkScratch& scratch) {
  if (codec == acquire::ChunkCodec::Lz4) {
    decodeLz4(chunk, out, scratch.layout);
  } else {
    decodeBitshuffleLz4(chunk, elementBytes, out, scratch);
  }
}

}  // namespace cineflow::process

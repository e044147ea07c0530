#include "process/bitshuffle_lz4.hpp"

#include <lz4.h>

#include "compute/cpu/parallel_for.hpp"
#include "process/big_endian.hpp"
#include "process/cuda/lz4_device.hpp"

#include <algorithm>
#include <cstring>
#include <exception>

namespace cineflow::process {
namespace {

constexpr std::size_t kHeaderBytes = 12;

// The unshuffle's element-wise paths, cloned for AVX-512 / AVX2 machines (not under the
// sanitizers, whose instrumented clone resolvers crash before main).
#if defined(__x86_64__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__) && \
    !defined(__SANITIZE_THREAD__)
#define CINEFLOW_UNSHUFFLE_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define CINEFLOW_UNSHUFFLE_CLONES
#endif
constexpr std::size_t kTargetBlockBytes = 8192;
constexpr std::size_t kMinBlockElements = 128;

// Bit c of byte r goes to bit r of byte c (the device code's transpose, the same on the host).
inline std::uint64_t transpose8x8(std::uint64_t x) {
  return cuda::transposeBits8x8(x);
}

// Elements in the last, partial block (a multiple of 8) and in the raw tail.
struct Split {
  std::size_t fullBlocks, lastBlockElements, tailElements;
};
Split split(std::size_t elements, std::size_t blockElements) {
  const std::size_t remainder = elements % blockElements;
  return {elements / blockElements, remainder - remainder % 8, elements % 8};
}

[[noreturn]] void refuse(const std::string& why) {
  throw ChunkError("bitshuffle-LZ4 chunk: " + why);
}

}  // namespace

std::size_t defaultBlockElements(std::size_t elementBytes) {
  const std::size_t elements = kTargetBlockBytes / std::max<std::size_t>(elementBytes, 1);
  return std::max(kMinBlockElements, elements - elements % 8);
}

void bitshuffleBlock(const std::byte* in, std::byte* out, std::size_t elements,
                     std::size_t elementBytes) {
  const std::size_t rowBytes = elements / 8;
  for (std::size_t group = 0; group < rowBytes; ++group) {
    const std::byte* first = in + group * 8 * elementBytes;
    for (std::size_t j = 0; j < elementBytes; ++j) {
      std::uint64_t x = 0;
      for (std::size_t e = 0; e < 8; ++e) {
        x |= static_cast<std::uint64_t>(first[e * elementBytes + j]) << (8 * e);
      }
      x = transpose8x8(x);
      std::byte* row = out + 8 * j * rowBytes + group;
      for (std::size_t k = 0; k < 8; ++k) {
        row[k * rowBytes] = static_cast<std::byte>((x >> (8 * k)) & 0xff);
      }
    }
  }
}

namespace {

// The 8 x 8 byte matrix in w[0..7] (word k = row k) transposed in registers: 4-, 2- and 1-byte
// blocks exchanged across the diagonal, so that word g then holds byte g of every row.
inline void transposeBytes8x8(std::uint64_t (&w)[8]) {
  for (std::size_t k = 0; k < 4; ++k) {
    const std::uint64_t t = ((w[k] >> 32) ^ w[k + 4]) & 0x00000000FFFFFFFFULL;
    w[k] ^= t << 32;
    w[k + 4] ^= t;
  }
  for (const std::size_t k : {0u, 1u, 4u, 5u}) {
    const std::uint64_t t = ((w[k] >> 16) ^ w[k + 2]) & 0x0000FFFF0000FFFFULL;
    w[k] ^= t << 16;
    w[k + 2] ^= t;
  }
  for (std::size_t k = 0; k < 8; k += 2) {
    const std::uint64_t t = ((w[k] >> 8) ^ w[k + 1]) & 0x00FF00FF00FF00FFULL;
    w[k] ^= t << 8;
    w[k + 1] ^= t;
  }
}

// Byte j of groups group .. group + 7 from the 8 bit rows of byte j (one 8-byte read from each
// row): word g holds byte j of group + g's 8 elements, element e in byte e.
inline void eightGroups(const std::byte* rows, std::size_t rowBytes, std::size_t group,
                        std::uint64_t (&w)[8]) {
  for (std::size_t k = 0; k < 8; ++k) {
    std::memcpy(&w[k], rows + k * rowBytes + group, 8);
  }
  transposeBytes8x8(w);
  for (std::size_t g = 0; g < 8; ++g) {
    w[g] = transpose8x8(w[g]);
  }
}

// One group's 8 elements of 2 or 4 bytes from its words of byte 0, 1 (, 2, 3): the bytes of
// element e are byte e of each word, interleaved.
inline void writeGroup2(std::uint64_t b0, std::uint64_t b1, std::byte* out) {
  std::uint64_t lo = 0, hi = 0;
  for (std::size_t e = 0; e < 4; ++e) {
    lo |= ((b0 >> (8 * e)) & 0xff) << (16 * e) | ((b1 >> (8 * e)) & 0xff) << (16 * e + 8);
    hi |= ((b0 >> (8 * e + 32)) & 0xff) << (16 * e) | ((b1 >> (8 * e + 32)) & 0xff) << (16 * e + 8);
  }
  std::memcpy(out, &lo, 8);
  std::memcpy(out + 8, &hi, 8);
}

// Elements of EB bytes (2 or 4): eight groups at a time, every byte plane of a group assembled in
// registers and written as whole elements (no byte-strided stores).
template <std::size_t EB>
inline void unshuffleWhole(const std::byte* in, std::byte* out, std::size_t rowBytes,
                           std::size_t& group) {
  for (; group + 8 <= rowBytes; group += 8) {
    std::uint64_t w[EB][8];
    for (std::size_t j = 0; j < EB; ++j) {
      eightGroups(in + 8 * j * rowBytes, rowBytes, group, w[j]);
    }
    for (std::size_t g = 0; g < 8; ++g) {
      std::byte* first = out + (group + g) * 8 * EB;
      if constexpr (EB == 2) {
        writeGroup2(w[0][g], w[1][g], first);
      } else {
        // 4 bytes: bytes 0-1 and 2-3 interleaved as two 2-byte elements, then those pairs.
        std::byte low[16], high[16];
        writeGroup2(w[0][g], w[1][g], low);
        writeGroup2(w[2][g], w[3][g], high);
        for (std::size_t e = 0; e < 8; ++e) {
          std::memcpy(first + 4 * e, low + 2 * e, 2);
          std::memcpy(first + 4 * e + 2, high + 2 * e, 2);
        }
      }
    }
  }
}

CINEFLOW_UNSHUFFLE_CLONES void unshuffleWhole2(const std::byte* in, std::byte* out,
                                               std::size_t rowBytes, std::size_t& group) {
  unshuffleWhole<2>(in, out, rowBytes, group);
}

CINEFLOW_UNSHUFFLE_CLONES void unshuffleWhole4(const std::byte* in, std::byte* out,
                                               std::size_t rowBytes, std::size_t& group) {
  unshuffleWhole<4>(in, out, rowBytes, group);
}

}  // namespace

void bitunshuffleBlock(const std::byte* in, std::byte* out, std::size_t elements,
                       std::size_t elementBytes) {
  const std::size_t rowBytes = elements / 8;
  // One group (8 elements) at a time: byte j of its elements from the 8 rows of byte j.
  const auto unshuffleGroup = [&](std::size_t group, std::size_t j, std::uint64_t x) {
    x = transpose8x8(x);
    std::byte* first = out + group * 8 * elementBytes + j;
    for (std::size_t e = 0; e < 8; ++e) {
      first[e * elementBytes] = static_cast<std::byte>((x >> (8 * e)) & 0xff);
    }
  };
  std::size_t whole = 0;  // groups done by the element-wise paths
  if (elementBytes == 2) {
    unshuffleWhole2(in, out, rowBytes, whole);
  } else if (elementBytes == 4) {
    unshuffleWhole4(in, out, rowBytes, whole);
  }
  for (std::size_t j = 0; j < elementBytes; ++j) {
    const std::byte* rows = in + 8 * j * rowBytes;
    std::size_t group = whole;
    for (; group + 8 <= rowBytes; group += 8) {
      std::uint64_t w[8];
      for (std::size_t k = 0; k < 8; ++k) {
        std::memcpy(&w[k], rows + k * rowBytes + group, 8);
      }
      transposeBytes8x8(w);
      for (std::size_t g = 0; g < 8; ++g) {
        unshuffleGroup(group + g, j, w[g]);
      }
    }
    for (; group < rowBytes; ++group) {
      std::uint64_t x = 0;
      for (std::size_t k = 0; k < 8; ++k) {
        x |= static_cast<std::uint64_t>(rows[k * rowBytes + group]) << (8 * k);
      }
      unshuffleGroup(group, j, x);
    }
  }
}

std::size_t bitshuffleLz4Bound(std::size_t bytes, std::size_t elementBytes,
                               std::size_t blockElements) {
  const std::size_t blockBytes =
      (blockElements > 0 ? blockElements : defaultBlockElements(elementBytes)) * elementBytes;
  const std::size_t blocks = bytes / blockBytes + 1;
  return kHeaderBytes +
         blocks * (4 + static_cast<std::size_t>(
                           LZ4_compressBound(static_cast<int>(std::min(bytes, blockBytes))))) +
         bytes % blockBytes;
}

std::size_t encodeBitshuffleLz4(std::span<const std::byte> data, std::size_t elementBytes,
                                std::vector<std::byte>& out, std::size_t blockElements) {
  if (elementBytes == 0 || data.size() % elementBytes != 0) {
    refuse(std::to_string(data.size()) + " bytes are not whole elements of " +
           std::to_string(elementBytes) + " bytes");
  }
  if (blockElements == 0) {
    blockElements = defaultBlockElements(elementBytes);
  }
  if (blockElements % 8 != 0) {
    refuse("a block of " + std::to_string(blockElements) + " elements is not a multiple of 8");
  }
  const std::size_t elements = data.size() / elementBytes;
  const Split parts = split(elements, blockElements);
  const std::size_t blockBytes = blockElements * elementBytes;
  out.resize(kHeaderBytes +
             (parts.fullBlocks + 1) *
                 (4 + static_cast<std::size_t>(LZ4_compressBound(static_cast<int>(blockBytes)))) +
             parts.tailElements * elementBytes);
  writeBigEndian(out.data(), data.size(), 8);
  writeBigEndian(out.data() + 8, blockBytes, 4);
  std::vector<std::byte> shuffled(blockBytes);
  std::size_t at = kHeaderBytes;
  const auto encodeBlock = [&](const std::byte* in, std::size_t blockElementsHere) {
    const std::size_t bytes = blockElementsHere * elementBytes;
    bitshuffleBlock(in, shuffled.data(), blockElementsHere, elementBytes);
    const int written =
        LZ4_compress_default(reinterpret_cast<const char*>(shuffled.data()),
                             reinterpret_cast<char*>(out.data() + at + 4), static_cast<int>(bytes),
                             static_cast<int>(out.size() - at - 4));
    if (written <= 0) {
      refuse("LZ4 could not compress a block of " + std::to_string(bytes) + " bytes");
    }
    writeBigEndian(out.data() + at, static_cast<std::uint64_t>(written), 4);
    at += 4 + static_cast<std::size_t>(written);
  };
  for (std::size_t b = 0; b < parts.fullBlocks; ++b) {
    encodeBlock(data.data() + b * blockBytes, blockElements);
  }
  if (parts.lastBlockElements > 0) {
    encodeBlock(data.data() + parts.fullBlocks * blockBytes, parts.lastBlockElements);
  }
  const std::size_t tailBytes = parts.tailElements * elementBytes;
  if (tailBytes > 0) {  // an empty frame's data() may be null, which memcpy may not be given
    std::memcpy(out.data() + at, data.data() + data.size() - tailBytes, tailBytes);
  }
  at += tailBytes;
  out.resize(at);
  return at;
}

std::size_t readChunkHeader(std::span<const std::byte> chunk, std::size_t expectedBytes,
                            const char* format, ChunkLayout& layout) {
  const auto fail = [format](const std::string& why) {
    throw ChunkError(std::string(format) + " chunk: " + why);
  };
  if (chunk.size() < kHeaderBytes) {
    fail("truncated: " + std::to_string(chunk.size()) + " bytes, shorter than its 12-byte header");
  }
  layout.decodedBytes = readBigEndian(chunk.data(), 8);
  const std::size_t blockBytes = readBigEndian(chunk.data() + 8, 4);
  if (layout.decodedBytes != expectedBytes) {
    fail("decodes to " + std::to_string(layout.decodedBytes) + " bytes, expected " +
         std::to_string(expectedBytes) + " (one frame)");
  }
  return blockBytes;
}

void requireRoomForBlocks(std::span<const std::byte> chunk, std::size_t blocks,
                          const char* format) {
  if (blocks > (chunk.size() - std::min(chunk.size(), kHeaderBytes)) / 4) {
    throw ChunkError(std::string(format) + " chunk: truncated: its header promises " +
                     std::to_string(blocks) + " blocks, more than its " +
                     std::to_string(chunk.size()) + " bytes can hold");
  }
}

std::size_t readBlockTable(std::span<const std::byte> chunk, const char* format,
                           ChunkLayout& layout) {
  const auto fail = [format](const std::string& why) {
    throw ChunkError(std::string(format) + " chunk: " + why);
  };
  const std::size_t blocks = layout.blocks.size();
  std::size_t at = kHeaderBytes;
  for (std::size_t b = 0; b < blocks; ++b) {
    if (chunk.size() - at < 4) {
      fail("truncated: block " + std::to_string(b + 1) + " of " + std::to_string(blocks) +
           " starts past the chunk's " + std::to_string(chunk.size()) + " bytes");
    }
    const std::size_t compressed = readBigEndian(chunk.data() + at, 4);
    if (compressed > chunk.size() - at - 4) {
      fail("truncated: block " + std::to_string(b + 1) + " of " + std::to_string(blocks) +
           " needs " + std::to_string(compressed) + " bytes, the chunk has " +
           std::to_string(chunk.size() - at - 4) + " left");
    }
    layout.blocks[b].offset = at + 4;
    layout.blocks[b].compressedBytes = compressed;
    at += 4 + compressed;
  }
  return at;
}

void decodeLz4Block(std::span<const std::byte> chunk, const ChunkLayout& layout, std::size_t b,
                    std::byte* target, const char* format) {
  const ChunkLayout::Block& block = layout.blocks[b];
  const int decoded = LZ4_decompress_safe(
      reinterpret_cast<const char*>(chunk.data() + block.offset), reinterpret_cast<char*>(target),
      static_cast<int>(block.compressedBytes), static_cast<int>(block.decodedBytes));
  if (decoded < 0 || static_cast<std::size_t>(decoded) != block.decodedBytes) {
    throw ChunkError(std::string(format) + " chunk: block " + std::to_string(b + 1) + " of " +
                     std::to_string(layout.blocks.size()) +
                     (decoded < 0 ? std::string(" is not valid LZ4")
                                  : " decodes to " + std::to_string(decoded) + " bytes, expected " +
                                        std::to_string(block.decodedBytes)));
  }
}

void readChunkLayout(std::span<const std::byte> chunk, std::size_t elementBytes,
                     std::size_t expectedBytes, ChunkLayout& layout) {
  const std::size_t blockBytes = readChunkHeader(chunk, expectedBytes, "bitshuffle-LZ4", layout);
  if (elementBytes == 0 || blockBytes == 0 || blockBytes % (8 * elementBytes) != 0) {
    refuse("block size " + std::to_string(blockBytes) +
           " bytes is not a multiple of 8 elements of " + std::to_string(elementBytes) + " bytes");
  }
  if (expectedBytes % elementBytes != 0) {
    refuse(std::to_string(expectedBytes) + " bytes are not whole elements of " +
           std::to_string(elementBytes) + " bytes");
  }
  layout.blockElements = blockBytes / elementBytes;
  layout.blockBytes = blockBytes;
  const Split parts = split(expectedBytes / elementBytes, layout.blockElements);
  const std::size_t blocks = parts.fullBlocks + (parts.lastBlockElements > 0 ? 1 : 0);
  requireRoomForBlocks(chunk, blocks, "bitshuffle-LZ4");
  layout.blocks.resize(blocks);
  for (std::size_t b = 0; b < blocks; ++b) {
    layout.blocks[b].decodedBytes =
        (b < parts.fullBlocks ? layout.blockElements : parts.lastBlockElements) * elementBytes;
    layout.blocks[b].stored = false;
  }
  const std::size_t at = readBlockTable(chunk, "bitshuffle-LZ4", layout);
  layout.tailOffset = at;
  layout.tailBytes = parts.tailElements * elementBytes;
  if (chunk.size() - at != layout.tailBytes) {
    refuse(std::to_string(chunk.size() - at) + " bytes after the last block, expected " +
           std::to_string(layout.tailBytes) + " (the elements after the last multiple of 8)");
  }
}

void decodeBitshuffleLz4(std::span<const std::byte> chunk, std::size_t elementBytes,
                         std::span<std::byte> out, ChunkScratch& scratch) {
  ChunkLayout& layout = scratch.layout;
  readChunkLayout(chunk, elementBytes, out.size(), layout);
  // As large as the largest block this frame has, never the header's block size: a damaged or
  // hostile header may claim gigabytes (found by fuzz_chunk_decode).
  std::size_t largest = 0;
  for (const ChunkLayout::Block& block : layout.blocks) {
    largest = std::max(largest, block.decodedBytes);
  }
  // Every block but the last decodes to layout's blockBytes, so block b starts at b blockBytes.
  // Frames of many blocks (a replay's fallback for blocks too large to stage) are decoded on the
  // CPU pool, each task a run of blocks with its own scratch block; the error reported is the
  // first damaged block in block order, whichever task met it first.
  const std::size_t blocks = layout.blocks.size();
  const std::size_t workers = blocks >= 8 ? compute::cpu::parallelism() : 1;
  const std::size_t grain = std::max<std::size_t>(1, (blocks + workers - 1) / workers);
  const std::size_t tasks = blocks == 0 ? 0 : (blocks + grain - 1) / grain;
  if (scratch.block.size() < tasks * largest) {
    scratch.block.resize(tasks * largest);
  }
  const auto decodeRun = [&](std::size_t begin, std::size_t end) {
    std::byte* shuffled = scratch.block.data() + begin / grain * largest;
    for (std::size_t b = begin; b < end; ++b) {
      const ChunkLayout::Block& block = layout.blocks[b];
      decodeLz4Block(chunk, layout, b, shuffled, "bitshuffle-LZ4");
      bitunshuffleBlock(shuffled, out.data() + b * layout.blockBytes,
                        block.decodedBytes / elementBytes, elementBytes);
    }
  };
  if (tasks <= 1) {
    decodeRun(0, blocks);
  } else {
    std::vector<std::exception_ptr> failures(tasks);
    auto body = [&](std::size_t begin, std::size_t end) {
      try {
        decodeRun(begin, end);
      } catch (...) {
        failures[begin / grain] = std::current_exception();
      }
    };
    compute::cpu::parallelFor(blocks, grain, body);
    for (const std::exception_ptr& failure : failures) {
      if (failure) {
        std::rethrow_exception(failure);
      }
    }
  }
  const std::size_t written =
      blocks == 0 ? 0 : (blocks - 1) * layout.blockBytes + layout.blocks.back().decodedBytes;
  if (layout.tailBytes > 0) {  // an empty frame's out.data() may be null (fuzz_chunk_decode)
    std::memcpy(out.data() + written, chunk.data() + layout.tailOffset, layout.tailBytes);
  }
}

}  // namespace cineflow::process

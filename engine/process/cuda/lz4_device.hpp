#pragma once
// The per-block work of decoding bitshuffle + LZ4 chunks (process/bitshuffle_lz4.hpp) as device
// code that is also host code (process/cuda/device_code.hpp): a GPU decoder runs these on the
// device, and test_device_code runs the very same functions on the host against liblz4 and the
// CPU decoder, in every build.
//
// lz4DecodeBlock: one LZ4 block (no frame header) into exactly `dstSize` bytes. Every length
// and offset is checked against both buffers, so a corrupt block can neither read nor write out
// of bounds; it returns the decoded size, or a negative code saying what was wrong.
// unshuffleGroupByte: one group of 8 elements' byte `j` from the block's 8 bit rows of that byte.

#include <cstddef>
#include <cstdint>

#include "process/cuda/device_code.hpp"

namespace cineflow::process::cuda {

// lz4DecodeBlock's errors.
inline constexpr std::int64_t kLz4Truncated = -1;  // a length or offset runs past the block's end
inline constexpr std::int64_t kLz4Overflow = -2;   // more bytes than the decoded block holds
inline constexpr std::int64_t kLz4BadOffset = -3;  // a match before the output's start (or 0)
inline constexpr std::int64_t kLz4WrongSize = -4;  // decoded to fewer bytes than expected
inline constexpr std::int64_t kLz4Invalid = -5;    // liblz4 refused it (the CPU decoder)

// A staged chunk (process/staged_chunk.hpp) as the decoders read it: this table, then one
// StagedBlock per LZ4 block, at the table offset of the staged bytes; native byte order.
struct StagedChunkTable {
  std::uint32_t blocks;          // LZ4 blocks
  std::uint32_t blockBytes;      // decoded bytes of every block but the last
  std::uint32_t lastBlockBytes;  // decoded bytes of the last block
  std::uint32_t elementBytes;    // the bit shuffle's element; 0: not shuffled (plain LZ4)
  std::uint32_t tailOffset;      // where the elements after the last multiple of 8 lie ...
  std::uint32_t tailBytes;       // ... as they are, at the frame's end
};
struct StagedBlock {
  std::uint32_t offset;           // of the block's bytes in the chunk
  std::uint32_t compressedBytes;  // stored bytes
  std::uint32_t stored;           // 1: the bytes as they are (did not compress), copied
  std::uint32_t unused;
};

// A decode's outcome in one int: 0, or (first failed block + 1) * 8 + the negated error code.
CINEFLOW_HD inline int chunkStatus(std::uint32_t block, std::int64_t code) {
  return static_cast<int>((block + 1) * 8 + static_cast<std::uint32_t>(-code));
}

// A 4-bit length of 15 continues in the bytes that follow (each added; 255 means another):
// adds them to `length`. False when the block ends first.
CINEFLOW_HD inline bool extendLength(const std::uint8_t* src, std::size_t srcSize, std::size_t& in,
                                     std::size_t& length) {
  unsigned more = 255;
  while (more == 255) {
    if (in >= srcSize) {
      return false;
    }
    more = src[in++];
    length += more;
  }
  return true;
}

// One LZ4 sequence: `literals` bytes copied from src[literalsFrom], then `match` bytes copied from
// `matchOffset` bytes back in the output (none in the block's last sequence, `last`).
struct Lz4Sequence {
  std::size_t literalsFrom = 0, literals = 0, matchOffset = 0, match = 0;
  bool last = false;
};

// Parses the sequence starting at src[in] of a block decoding into `dstSize` bytes of which
// `out` are decoded, checking every length and offset against both buffers; moves `in` past it.
// Returns 0, or an error code. A GPU decoder's one parsing lane runs exactly this.
CINEFLOW_HD inline std::int64_t lz4NextSequence(const std::uint8_t* src, std::size_t srcSize,
                                                std::size_t& in, std::size_t out,
                                                std::size_t dstSize, Lz4Sequence& sequence) {
  const unsigned token = src[in++];
  std::size_t literals = token >> 4;
  if (literals == 15 && !extendLength(src, srcSize, in, literals)) {
    return kLz4Truncated;
  }
  if (literals > srcSize - in) {
    return kLz4Truncated;
  }
  if (literals > dstSize - out) {
    return kLz4Overflow;
  }
  sequence.literalsFrom = in;
  sequence.literals = literals;
  sequence.matchOffset = 0;
  sequence.match = 0;
  in += literals;
  out += literals;
  sequence.last = in == srcSize;  // the last sequence holds literals only
  if (sequence.last) {
    return 0;
  }
  if (srcSize - in < 2) {
    return kLz4Truncated;
  }
  const std::size_t offset =
      static_cast<std::size_t>(src[in]) | (static_cast<std::size_t>(src[in + 1]) << 8);
  in += 2;
  if (offset == 0 || offset > out) {
    return kLz4BadOffset;
  }
  std::size_t match = (token & 15u) + 4;
  if ((token & 15u) == 15 && !extendLength(src, srcSize, in, match)) {
    return kLz4Truncated;
  }
  if (match > dstSize - out) {
    return kLz4Overflow;
  }
  sequence.matchOffset = offset;
  sequence.match = match;
  return 0;
}

CINEFLOW_HD inline std::int64_t lz4DecodeBlock(const std::uint8_t* src, std::size_t srcSize,
                                               std::uint8_t* dst, std::size_t dstSize) {
  std::size_t in = 0, out = 0;
  bool ended = false;  // by a literals-only sequence, as every LZ4 block ends
  while (!ended) {
    if (in >= srcSize) {
      return kLz4Truncated;
    }
    Lz4Sequence sequence;
    const std::int64_t code = lz4NextSequence(src, srcSize, in, out, dstSize, sequence);
    if (code != 0) {
      return code;
    }
    for (std::size_t i = 0; i < sequence.literals; ++i) {
      dst[out + i] = src[sequence.literalsFrom + i];
    }
    out += sequence.literals;
    // Byte i of a match repeats the output with period matchOffset when they overlap (offset
    // shorter than the match), so every byte is known from what precedes the match: the form a
    // warp copies in parallel.
    for (std::size_t i = 0; i < sequence.match; ++i) {
      dst[out + i] = dst[out - sequence.matchOffset + i % sequence.matchOffset];
    }
    out += sequence.match;
    ended = sequence.last;
  }
  return out == dstSize ? static_cast<std::int64_t>(out) : kLz4WrongSize;
}

// The 8 x 8 bit matrix in `x` (row r = byte r, column c = bit c) transposed: bit c of byte r goes
// to bit r of byte c. Three exchanges of 1-, 2- and 4-bit sub-blocks across the diagonal.
CINEFLOW_HD inline std::uint64_t transposeBits8x8(std::uint64_t x) {
  std::uint64_t t = (x ^ (x >> 7)) & 0x00AA00AA00AA00AAULL;
  x ^= t ^ (t << 7);
  t = (x ^ (x >> 14)) & 0x0000CCCC0000CCCCULL;
  x ^= t ^ (t << 14);
  t = (x ^ (x >> 28)) & 0x00000000F0F0F0F0ULL;
  x ^= t ^ (t << 28);
  return x;
}

// Group `group` (elements 8 group .. 8 group + 7) of a bit-shuffled block of `elements` elements
// of `elementBytes` bytes: their byte `j`, written into `out` (the unshuffled block).
CINEFLOW_HD inline void unshuffleGroupByte(const std::uint8_t* shuffled, std::uint8_t* out,
                                           std::size_t elements, std::size_t elementBytes,
                                           std::size_t group, std::size_t j) {
  const std::size_t rowBytes = elements / 8;
  const std::uint8_t* rows = shuffled + 8 * j * rowBytes + group;
  std::uint64_t x = 0;
  for (std::size_t k = 0; k < 8; ++k) {
    x |= static_cast<std::uint64_t>(rows[k * rowBytes]) << (8 * k);
  }
  x = transposeBits8x8(x);
  std::uint8_t* first = out + group * 8 * elementBytes + j;
  for (std::size_t e = 0; e < 8; ++e) {
    first[e * elementBytes] = static_cast<std::uint8_t>((x >> (8 * e)) & 0xff);
  }
}

}  // namespace cineflow::process::cuda

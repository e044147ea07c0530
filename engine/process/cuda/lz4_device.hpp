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

CINEFLOW_HD inline std::int64_t lz4DecodeBlock(const std::uint8_t* src, std::size_t srcSize,
                                               std::uint8_t* dst, std::size_t dstSize) {
  std::size_t in = 0, out = 0;
  while (in < srcSize) {
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
    for (std::size_t i = 0; i < literals; ++i) {
      dst[out + i] = src[in + i];
    }
    in += literals;
    out += literals;
    if (in == srcSize) {
      break;  // the last sequence holds literals only
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
    // Byte by byte: a match may overlap what it writes (offset < length repeats a pattern).
    for (std::size_t i = 0; i < match; ++i) {
      dst[out + i] = dst[out + i - offset];
    }
    out += match;
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

#pragma once
// Bitshuffle + LZ4 chunks in the format of HDF5 filter 32008 (the bitshuffle filter with its LZ4
// option), as h5py with hdf5plugin, the Debian `bitshuffle` package and detector software write
// them. Raw recordings store one frame per chunk in it; replay reads the chunks as they are
// (H5Dread_chunk) and decodes them here on the CPU, or on the device (the CUDA twin reads the same
// layout).
//
// A chunk of n elements of s bytes:
//   bytes 0-7    the decoded size in bytes, n s (big-endian uint64)
//   bytes 8-11   the block size B in bytes (big-endian uint32; B / s elements, a multiple of 8)
//   then the full blocks of B / s elements, then one last block of the remaining elements
//   rounded down to a multiple of 8 (none when that is 0), each as
//     4 bytes      the LZ4 block's size c (big-endian uint32)
//     c bytes      one LZ4 block (no frame header) of the bit-shuffled block
//   then the last n mod 8 elements' bytes, copied as they are.
// Bit shuffle of a block of m elements (m a multiple of 8): bit k of byte j of element i moves to
// bit i mod 8 of byte (8 j + k) m / 8 + i / 8: one row of m bits for every bit of the element.

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace cineflow::process {

// HDF5's registered number for the bitshuffle filter, and its client data for LZ4 with the
// default block size: {filter version 0, bitshuffle 0.3, element size, block size 0 (default),
// compression 2 (LZ4)}; the element size goes in at [2].
inline constexpr unsigned kBitshuffleFilterId = 32008;
inline constexpr unsigned kBitshuffleLz4 = 2;

// A chunk that cannot be decoded: the message says where and why ("block 3 of 5: ...").
class ChunkError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The default block size for `elementBytes`-byte elements, in elements (8 KiB of data, a multiple
// of 8, at least 128), as the bitshuffle filter chooses it.
std::size_t defaultBlockElements(std::size_t elementBytes);

// The header and block table of one chunk, checked against the chunk's size.
struct ChunkLayout {
  std::uint64_t decodedBytes = 0;
  std::size_t blockElements = 0;  // bitshuffle: elements per block
  std::size_t blockBytes = 0;     // decoded bytes of every block but the last
  // Per LZ4 block: where its compressed bytes start in the chunk, how many, and how many decoded
  // bytes it gives (the last block may be shorter); `stored`: kept as they are (plain LZ4's
  // blocks that did not compress), to be copied, not decoded.
  struct Block {
    std::size_t offset = 0, compressedBytes = 0, decodedBytes = 0;
    bool stored = false;
  };
  std::vector<Block> blocks;
  std::size_t tailOffset = 0;  // where the last n mod 8 elements' raw bytes start
  std::size_t tailBytes = 0;
};
// Reads `chunk`'s header and block table for elements of `elementBytes` bytes and an expected
// decoded size of `expectedBytes`. Throws ChunkError naming what does not fit (a truncated header,
// another decoded size, a block running past the end, bytes left over).
void readChunkLayout(std::span<const std::byte> chunk, std::size_t elementBytes,
                     std::size_t expectedBytes, ChunkLayout& layout);

// Shared by the chunk formats (chunk_codec.hpp), whose messages start with `format`
// ("bitshuffle-LZ4", "LZ4"). readChunkHeader: the 12-byte header; sets layout.decodedBytes,
// checked against `expectedBytes`, and returns the block size in bytes. readBlockTable: the
// blocks from byte 12, as many as layout.blocks holds, each 4-byte size checked against the
// chunk's end; sets their offsets and compressed sizes and returns where the last one ends.
// Both throw ChunkError.
std::size_t readChunkHeader(std::span<const std::byte> chunk, std::size_t expectedBytes,
                            const char* format, ChunkLayout& layout);
std::size_t readBlockTable(std::span<const std::byte> chunk, const char* format,
                           ChunkLayout& layout);
// Refuses a header whose `blocks` cannot all have their 4-byte sizes in `chunk` (before a table
// of that many is allocated: a damaged block size must not cost gigabytes).
void requireRoomForBlocks(std::span<const std::byte> chunk, std::size_t blocks, const char* format);
// LZ4 block `b` of `layout` into `target` (its decoded size); ChunkError naming the block when
// it is not valid LZ4 or decodes to another size.
void decodeLz4Block(std::span<const std::byte> chunk, const ChunkLayout& layout, std::size_t b,
                    std::byte* target, const char* format);

// One bit-shuffled block of `elements` elements (a multiple of 8) of `elementBytes` bytes, and its
// inverse. `in` and `out` do not overlap.
void bitshuffleBlock(const std::byte* in, std::byte* out, std::size_t elements,
                     std::size_t elementBytes);
void bitunshuffleBlock(const std::byte* in, std::byte* out, std::size_t elements,
                       std::size_t elementBytes);

// Encodes `data` (whole elements of `elementBytes` bytes) as one chunk into `out` (resized).
// `blockElements` 0: the default. Returns the chunk's size.
std::size_t encodeBitshuffleLz4(std::span<const std::byte> data, std::size_t elementBytes,
                                std::vector<std::byte>& out, std::size_t blockElements = 0);
// The most bytes a chunk of `bytes` decoded bytes can take (for sizing buffers once).
// `blockElements` 0: the default block.
std::size_t bitshuffleLz4Bound(std::size_t bytes, std::size_t elementBytes,
                               std::size_t blockElements = 0);

// What decoding needs besides the chunk and the frame, kept between frames so that a decoder
// allocates only for its first frame (or a chunk with larger blocks).
struct ChunkScratch {
  std::vector<std::byte> block;  // one decoded, still shuffled block
  ChunkLayout layout;
};

// Decodes one chunk into `out` (exactly the decoded size). Throws ChunkError (see
// readChunkLayout; an LZ4 block that is corrupt or decodes to another size names its block).
void decodeBitshuffleLz4(std::span<const std::byte> chunk, std::size_t elementBytes,
                         std::span<std::byte> out, ChunkScratch& scratch);

}  // namespace cineflow::process

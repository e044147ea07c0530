#pragma once
// Compressed chunks of one frame each, in the two HDF5 formats raw recordings use: bitshuffle +
// LZ4 (filter 32008, process/bitshuffle_lz4.hpp) and plain LZ4 (filter 32004, below), behind one
// set of calls that takes the codec.
//
// A plain LZ4 chunk (filter 32004, as HDF5's LZ4 plugin, h5py with hdf5plugin and Debian's
// hdf5-filter-plugin write it) of n bytes:
//   bytes 0-7    n (big-endian uint64)
//   bytes 8-11   the block size B in bytes (big-endian uint32)
//   then ceil(n / B) blocks of B bytes (the last one shorter), each as
//     4 bytes      its stored size c (big-endian uint32)
//     c bytes      one LZ4 block (no frame header), or, when c equals the block's size, the
//                  block's bytes as they are (they did not compress).
// HDF5's plugin defaults to blocks of 1 GiB (a whole frame in one block); recordings use blocks of
// 8 KiB, which readers of the format decode the same and a GPU decodes all at once.

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "acquire/stored_frame.hpp"
#include "process/bitshuffle_lz4.hpp"

namespace cineflow::process {

inline constexpr unsigned kLz4FilterId = 32004;
inline constexpr std::size_t kLz4RecordBlockBytes = 8192;

// HDF5's registered filter number of `codec` (0 for None).
unsigned filterId(acquire::ChunkCodec codec) noexcept;

// Encodes `data` as one chunk of `codec` (not None) into `out` (resized); returns its size.
// `elementBytes`: the bit shuffle's element (bitshuffle-LZ4 only); `blockBytes` the codec's block
// (0: its default, 8 KiB; chunkBlockProblem() tells a valid one). Throws ChunkError.
std::size_t encodeChunk(std::span<const std::byte> data, acquire::ChunkCodec codec,
                        std::size_t elementBytes, std::vector<std::byte>& out,
                        std::size_t blockBytes = 0);
// The most bytes a chunk of `bytes` decoded bytes can take in `codec` with blocks of `blockBytes`
// (0: the default).
std::size_t chunkBound(std::size_t bytes, acquire::ChunkCodec codec, std::size_t elementBytes,
                       std::size_t blockBytes = 0);
// The block in bytes `codec` writes when asked for `blockBytes` (0: its default, 8 KiB; for the
// bit shuffle the default's whole elements).
std::size_t chunkBlockBytes(acquire::ChunkCodec codec, std::size_t elementBytes,
                            std::size_t blockBytes);
// Blocks an encoder may be asked for: 0 (the default), or 1 KiB to 1 MiB, for the bit shuffle a
// whole number of groups of 8 elements. Empty when `blockBytes` is one, else why not.
inline constexpr std::size_t kMinChunkBlockBytes = 1024, kMaxChunkBlockBytes = 1 << 20;
std::string chunkBlockProblem(acquire::ChunkCodec codec, std::size_t elementBytes,
                              std::size_t blockBytes);

// Reads a chunk's header and block table (process/bitshuffle_lz4.hpp, readChunkLayout, for the
// bitshuffle codec). Throws ChunkError naming what does not fit.
void readChunkLayout(std::span<const std::byte> chunk, acquire::ChunkCodec codec,
                     std::size_t elementBytes, std::size_t expectedBytes, ChunkLayout& layout);
// Decodes one chunk into `out` (exactly the decoded size). Throws ChunkError naming the block.
void decodeChunk(std::span<const std::byte> chunk, acquire::ChunkCodec codec,
                 std::size_t elementBytes, std::span<std::byte> out, ChunkScratch& scratch);

// Plain LZ4 (32004) in blocks of `blockBytes`.
std::size_t encodeLz4Chunk(std::span<const std::byte> data, std::vector<std::byte>& out,
                           std::size_t blockBytes = kLz4RecordBlockBytes);
std::size_t lz4ChunkBound(std::size_t bytes, std::size_t blockBytes = kLz4RecordBlockBytes);

}  // namespace cineflow::process

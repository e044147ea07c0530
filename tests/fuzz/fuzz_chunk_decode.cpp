// Fuzzes the CPU chunk decoder (process/chunk_codec.hpp) with what a damaged or hostile recording
// can hold: any bytes as a bitshuffle-LZ4 (32008) or LZ4 (32004) chunk. The first four bytes
// choose the codec, the element size and the frame size the reader expects; the rest is the
// chunk. A ChunkError is the right answer to bad bytes; anything else (a crash, a read or write
// out of bounds, undefined behaviour, a leak) is a defect.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "process/chunk_codec.hpp"

using namespace cineflow;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 4) {
    return 0;
  }
  const acquire::ChunkCodec codec =
      data[0] % 2 == 0 ? acquire::ChunkCodec::BitshuffleLz4 : acquire::ChunkCodec::Lz4;
  constexpr std::size_t kElementBytes[] = {1, 2, 4, 8};
  const std::size_t elementBytes = kElementBytes[data[1] % 4];
  // Up to 64 Ki elements: frames as large as a recording's are the readers' business (bounds).
  const std::size_t expected = (std::size_t{data[2]} | std::size_t{data[3]} << 8) * elementBytes;
  std::vector<std::byte> out(expected);
  process::ChunkScratch scratch;
  const auto chunk = std::span(reinterpret_cast<const std::byte*>(data) + 4, size - 4);
  try {
    process::decodeChunk(chunk, codec, elementBytes, out, scratch);
  } catch (const process::ChunkError&) {
  }
  return 0;
}

// Fuzzes the GPU decoder's per-block code (process/cuda/lz4_device.hpp), compiled for the host:
// any bytes as one LZ4 block and, differentially, against liblz4 (what the CPU decoder runs).
// Bytes 0-1 give the decoded size the block must have; the rest is the block. The device code
// must never read or write out of bounds, and must agree with liblz4: when liblz4 decodes the
// block to exactly that size, the device code decodes it to the same bytes; when the device code
// accepts it, so does liblz4, with the same bytes. Then the bit unshuffle of a decoded block, by
// the device code's groups and by the CPU's, must agree. A disagreement aborts (a defect).
#include <lz4.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "process/bitshuffle_lz4.hpp"
#include "process/cuda/lz4_device.hpp"

using namespace cineflow;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) {
    return 0;
  }
  // The decoded size (under 16 KiB), then the block.
  const std::size_t decoded = std::size_t{data[0]} | static_cast<std::size_t>(data[1] & 0x3f) << 8;
  // A block decodes to at least one byte (chunks hold no empty blocks); for an empty output
  // liblz4 demands the one token 0, which the device code does not check (the fuzzer's find at
  // 8339 inputs: a lone token 0x0b; harmless, nothing is read or written).
  if (decoded == 0) {
    return 0;
  }
  const std::uint8_t* block = data + 2;
  const std::size_t blockBytes = size - 2;
  std::vector<std::uint8_t> device(decoded), reference(decoded);
  const std::int64_t got = process::cuda::lz4DecodeBlock(block, blockBytes, device.data(), decoded);
  const int expected = LZ4_decompress_safe(reinterpret_cast<const char*>(block),
                                           reinterpret_cast<char*>(reference.data()),
                                           static_cast<int>(blockBytes), static_cast<int>(decoded));
  const bool referenceExact = expected >= 0 && static_cast<std::size_t>(expected) == decoded;
  if (referenceExact != (got == static_cast<std::int64_t>(decoded))) {
    // liblz4 stops at the end of the output even when input remains; the device code requires
    // the block to end there too (as every encoder's block does). Only that case may differ.
    if (!(referenceExact && got < 0)) {
      std::abort();
    }
    return 0;
  }
  if (referenceExact && decoded > 0 && std::memcmp(device.data(), reference.data(), decoded) != 0) {
    std::abort();
  }
  // The unshuffle of whole groups of 8 elements of 1, 2, 4 or 8 bytes.
  const std::size_t elementBytes = std::size_t{1} << (data[1] >> 6);
  const std::size_t elements = decoded / elementBytes / 8 * 8;
  if (elements == 0) {
    return 0;
  }
  std::vector<std::uint8_t> groups(elements * elementBytes), cpu(elements * elementBytes);
  for (std::size_t group = 0; group < elements / 8; ++group) {
    for (std::size_t j = 0; j < elementBytes; ++j) {
      process::cuda::unshuffleGroupByte(device.data(), groups.data(), elements, elementBytes, group,
                                        j);
    }
  }
  process::bitunshuffleBlock(reinterpret_cast<const std::byte*>(device.data()),
                             reinterpret_cast<std::byte*>(cpu.data()), elements, elementBytes);
  if (groups != cpu) {
    std::abort();
  }
  return 0;
}

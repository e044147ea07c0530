#include "process/cpu/chunk_decode.hpp"

#include <lz4.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>

#include "compute/cpu/parallel_for.hpp"
#include "process/bitshuffle_lz4.hpp"
#include "process/cuda/lz4_device.hpp"
#include "process/staged_chunk.hpp"

namespace cineflow::process::cpu {

void enqueueChunkDecode(compute::Stream& stream, const std::byte* staged, std::size_t tableOffset,
                        std::byte* frame, std::size_t frameBytes, int* status) {
  stream.enqueueHost([=] { *status = decodeStagedChunk(staged, tableOffset, frame, frameBytes); });
}

int decodeStagedChunk(const std::byte* staged, std::size_t tableOffset, std::byte* frame,
                      std::size_t frameBytes) {
  cuda::StagedChunkTable table;
  std::memcpy(&table, staged + tableOffset, sizeof table);
  const std::byte* entries = staged + tableOffset + sizeof table;
  // The first failed block in block order, whichever worker met it first.
  std::atomic<std::uint32_t> firstFailed{std::numeric_limits<std::uint32_t>::max()};
  auto body = [&](std::size_t begin, std::size_t end) {
    alignas(64) std::byte shuffled[kMaxStagedBlockBytes];
    for (std::size_t b = begin; b < end; ++b) {
      cuda::StagedBlock block;
      std::memcpy(&block, entries + b * sizeof block, sizeof block);
      const std::size_t decoded = b + 1 == table.blocks ? table.lastBlockBytes : table.blockBytes;
      std::byte* out = frame + b * table.blockBytes;
      const std::byte* in = staged + block.offset;
      if (block.stored != 0) {
        std::memcpy(out, in, std::min<std::size_t>(decoded, block.compressedBytes));
        continue;
      }
      std::byte* target = table.elementBytes != 0 ? shuffled : out;
      const int got =
          LZ4_decompress_safe(reinterpret_cast<const char*>(in), reinterpret_cast<char*>(target),
                              static_cast<int>(block.compressedBytes), static_cast<int>(decoded));
      if (got < 0 || static_cast<std::size_t>(got) != decoded) {
        const auto index = static_cast<std::uint32_t>(b);
        std::uint32_t seen = firstFailed.load();
        while (index < seen && !firstFailed.compare_exchange_weak(seen, index)) {
        }
        continue;
      }
      if (table.elementBytes != 0) {
        bitunshuffleBlock(shuffled, out, decoded / table.elementBytes, table.elementBytes);
      }
    }
  };
  // 64 KiB of output per task (eight 8 KiB blocks, or 32 of a recording's 2 KiB ones), far more
  // than a task's scheduling.
  const std::size_t perTask =
      std::max<std::size_t>(1, (64 * 1024) / std::max<std::uint32_t>(table.blockBytes, 1));
  compute::cpu::parallelFor(table.blocks, perTask, body);
  std::memcpy(frame + frameBytes - table.tailBytes, staged + table.tailOffset, table.tailBytes);
  const std::uint32_t failed = firstFailed.load();
  return failed == std::numeric_limits<std::uint32_t>::max()
             ? 0
             : cuda::chunkStatus(failed, cuda::kLz4Invalid);
}

}  // namespace cineflow::process::cpu

#include "process/chunk_decoder.hpp"

#include <stdexcept>

#include "compute/twin.hpp"
#include "process/cpu/chunk_decode.hpp"
#include "process/cuda/lz4_device.hpp"
#include "process/cuda/stage_kernels.hpp"
#include "process/stage_checks.hpp"

namespace cineflow::process {
namespace {
constexpr const char* kStage = "chunk decoder";
}

std::string chunkStatusText(int status, std::uint32_t blocks) {
  if (status == 0) {
    return {};
  }
  const auto block = static_cast<std::uint32_t>(status / 8);
  const std::int64_t code = -(status % 8);
  const char* why = "is damaged";
  switch (code) {
    case cuda::kLz4Truncated:
      why = "is not valid LZ4 (a length or offset runs past the block's end)";
      break;
    case cuda::kLz4Overflow:
      why = "is not valid LZ4 (it decodes to more bytes than the block holds)";
      break;
    case cuda::kLz4BadOffset:
      why = "is not valid LZ4 (a match refers to before the block's start)";
      break;
    case cuda::kLz4WrongSize:
      why = "decodes to fewer bytes than the block holds";
      break;
    case cuda::kLz4Invalid:
      why = "is not valid LZ4";
      break;
    default:
      break;
  }
  return "block " + std::to_string(block) + " of " + std::to_string(blocks) + " " + why;
}

void ChunkDecoder::configure(compute::Backend& backend, std::size_t frameBytes) {
  kind_ = backend.kind();
  frameBytes_ = frameBytes;
}

void ChunkDecoder::enqueue(compute::Stream& stream, const std::byte* staged,
                           const StagedChunk& chunk, compute::DeviceSpan<std::byte> frame,
                           int* status) const {
  if (frameBytes_ == 0) {
    detail::throwNotConfigured(kStage);
  }
  detail::requireSize(kStage, "frame", frame.size(), frameBytes_);
  detail::requireData(kStage, "staged chunk", staged);
  detail::requireData(kStage, "frame", frame.data());
  detail::requireData(kStage, "status", status);
  if (chunk.bytes == 0 || chunk.blockBytes == 0 || chunk.blockBytes > kMaxStagedBlockBytes) {
    throw std::invalid_argument(std::string(kStage) + ": nothing staged (blocks of " +
                                std::to_string(chunk.blockBytes) + " bytes)");
  }
  compute::onTwin(
      kind_,
      [&] {
        cpu::enqueueChunkDecode(stream, staged, chunk.tableOffset, frame.data(), frameBytes_,
                                status);
      },
      [&] {
        cuda::enqueueChunkDecode(stream, staged, chunk.tableOffset, chunk.blocks, chunk.blockBytes,
                                 frame.data(), frameBytes_, status);
      });
}

}  // namespace cineflow::process

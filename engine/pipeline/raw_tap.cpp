#include "pipeline/raw_tap.hpp"

namespace cineflow::pipeline {

void RawTap::set(std::shared_ptr<const RawFrameTap> tap) {
  std::lock_guard lock(mutex_);
  tap_ = std::move(tap);
}

void RawTap::configure(const acquire::StoredFormat& stored, std::size_t frameBytes) {
  std::lock_guard lock(mutex_);
  stored_ = stored;
  if (stored.codec != acquire::ChunkCodec::None) {
    decoded_.resize(frameBytes);
  }
}

void RawTap::deliver(const acquire::FrameHeader& header, std::span<const std::byte> frame,
                     std::span<const std::byte> chunk) {
  std::lock_guard lock(mutex_);
  if (!tap_) {
    return;
  }
  if (!chunk.empty()) {  // the tap sees frames as acquired: this one decoded on the host
    process::decodeChunk(chunk, stored_.codec, stored_.elementBytes, decoded_, scratch_);
    frame = decoded_;
  }
  (*tap_)(header, frame);
}

}  // namespace cineflow::pipeline

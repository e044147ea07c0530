#pragma once
// Where the raw-frame tap (Engine::setRawFrameTap) is called, changeable while the engine runs:
// the acquisition thread holds this object's lock while it calls the tap, so a change waits for
// a call in progress.

#include <cstddef>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "acquire/frame.hpp"
#include "acquire/stored_frame.hpp"
#include "pipeline/engine_types.hpp"
#include "process/chunk_codec.hpp"

namespace cineflow::pipeline {

class RawTap {
 public:
  void set(std::shared_ptr<const RawFrameTap> tap);
  // Before a run: a compressed replay's frames (`stored`, codec not None) reach the tap decoded
  // on the host, into a frame of `frameBytes`.
  void configure(const acquire::StoredFormat& stored, std::size_t frameBytes);
  // The acquisition thread: hands the frame to the tap, if one is set. `chunk` non-empty: the
  // frame arrived as that stored chunk and is decoded first (process::ChunkError when it does
  // not decode); else `frame` holds it.
  void deliver(const acquire::FrameHeader& header, std::span<const std::byte> frame,
               std::span<const std::byte> chunk);

 private:
  std::mutex mutex_;
  std::shared_ptr<const RawFrameTap> tap_;  // mutex_
  acquire::StoredFormat stored_;
  process::ChunkScratch scratch_;
  std::vector<std::byte> decoded_;
};

}  // namespace cineflow::pipeline

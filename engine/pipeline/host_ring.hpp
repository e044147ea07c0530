#pragma once
// HostRing: N pinned host slots between the acquisition thread (producer) and the engine thread
// (consumer). A slot goes Free -> Filling (producer) -> Filled (FIFO) -> InFlight (consumer) ->
// Free, and returns to Free only through release(), which the engine calls from a host callback
// on the notify stream once the slot's upload has completed (docs/development.md, The pipeline), or
// discard() (a damaged frame skipped before it was filled).

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <span>
#include <vector>

#include "acquire/frame.hpp"
#include "compute/buffer.hpp"
#include "process/staged_chunk.hpp"

namespace cineflow::pipeline {

class HostRing {
 public:
  // Slots of `slotBytes` (at least frameBytes): room for a staged compressed frame when a source
  // hands its frames over compressed (process/staged_chunk.hpp).
  void configure(compute::Backend& backend, int count, std::size_t frameBytes,
                 std::size_t slotBytes = 0);
  // Resets every slot to Free and clears close/stop flags (no frame may be in flight).
  void reset();

  // Producer. wait=true blocks until a slot is free or stop is requested (returns -1 then);
  // wait=false returns -1 at once when every slot is busy.
  int acquireFree(bool wait);
  void publish(int slot);
  void discard(int slot);  // a slot acquired but not filled (a damaged frame skipped): Free
  void close();            // no more frames: the consumer drains the queue, then gets -1
  void requestStop();      // wakes a producer blocked in acquireFree

  // Consumer. Blocks until a filled slot (FIFO) or closed-and-empty (-1).
  int takeFilled();
  // The same for the Latest policy. At the start of a unit (slice index 0: a 2-D frame, a sweep's
  // first slice; a sweep under way is always finished): when a newer frame that starts a unit
  // waits behind it, the frames before that one are let go and it is taken instead; when none
  // does but the source waits for a slot (no slot is free) and a sweep has begun, that whole
  // sweep is let go, its frames as they come. Frames let go are Free again, their headers
  // appended to `skipped` (which must have capacity: slotCount() is enough); kRetake when it is
  // full before a frame could be taken (the caller reports them, clears it and asks again).
  static constexpr int kRetake = -2;
  int takeNewest(std::vector<acquire::FrameHeader>& skipped);
  void release(int slot) noexcept;  // from the notify stream's host callback

  std::span<std::byte> data(int slot) const;      // one frame's bytes
  std::span<std::byte> slotData(int slot) const;  // the whole slot (a staged chunk)
  acquire::FrameHeader& header(int slot) { return headers_[static_cast<std::size_t>(slot)]; }
  // What the slot holds when it is a staged compressed frame (bytes 0: a decoded frame).
  process::StagedChunk& staged(int slot) { return staged_[static_cast<std::size_t>(slot)]; }
  int slotCount() const { return static_cast<int>(state_.size()); }
  int occupancy() const;  // slots not Free

 private:
  enum class SlotState { Free, Filling, Filled, InFlight };

  compute::PinnedBuffer<std::byte> memory_;
  std::size_t frameBytes_ = 0, slotBytes_ = 0;
  std::vector<acquire::FrameHeader> headers_;
  std::vector<process::StagedChunk> staged_;
  mutable std::mutex mutex_;
  std::condition_variable freed_;
  std::condition_variable filled_;
  std::vector<SlotState> state_;
  std::vector<int> fifo_;  // ring of filled slot indices
  std::size_t fifoHead_ = 0;
  std::size_t fifoCount_ = 0;
  int nextFree_ = 0;
  bool closed_ = false;
  bool stopRequested_ = false;
  bool skippingUnit_ = false;  // the consumer lets a sweep's frames go (takeNewest)
};

}  // namespace cineflow::pipeline

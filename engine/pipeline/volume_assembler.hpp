#pragma once
// VolumeAssembler: the engine's bookkeeping of volumes over the cineloop (process/volume.hpp).
// The cineloop is laid out in blocks of K slots; each sweep fills one block, slice s going to the
// block's slot s. When the sweep's last slice has been dispatched and every slice is present, the
// MIPs are enqueued on the endpoint stream, the callback fires and the volume is published as the
// latest. A sweep with a missing slice (a dropped frame) is abandoned and counted, never
// published.
//
// Every method is for the engine thread only, except lockLatest() and the counters.

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <vector>

#include "acquire/frame.hpp"
#include "pipeline/cineloop.hpp"
#include "process/volume.hpp"
#include "tune/tuning.hpp"

namespace cineflow::pipeline {

class VolumeAssembler {
 public:
  VolumeAssembler() = default;
  ~VolumeAssembler() = default;
  VolumeAssembler(const VolumeAssembler&) = delete;
  VolumeAssembler& operator=(const VolumeAssembler&) = delete;

  // With nothing in flight. framesPerVolume 0 turns volumes off. Waits for the readers of the
  // previous volumes, then replaces the storage (MIP buffers and events for `blocks` volumes).
  void configure(compute::Backend& backend, int framesPerVolume, int blocks,
                 const process::ImageGeometry& slice);
  int framesPerVolume() const { return framesPerVolume_; }

  // Before the frame's work is enqueued: the cineloop slot for `header`'s frame, slice `slice`.
  // Frames of one sweep share sequence - slice (the sequence counts dropped frames too); a frame
  // of another sweep (or a slice index not above the previous one) starts a new sweep in the next
  // block, which first waits for that block's readers and makes `compute` wait (GPU side) for its
  // endpoint work. Throws std::runtime_error for a slice index outside [0, K), and when `stop` is
  // raised while it waits for a VolumeLock holder (instead of waiting for ever).
  int slotFor(const acquire::FrameHeader& header, int slice, compute::Stream& compute,
              const std::atomic<bool>& stop);
  // After the frame's work is enqueued (the last of it recorded in `frameDone`).
  void frameDispatched(const acquire::FrameHeader& header, int slice,
                       const compute::Event& frameDone, const Cineloop& cineloop,
                       compute::Stream& endpoint, const process::VolumeCallback& callback);
  // Lets go of the sweep being filled (stop, failure, reconfiguration); it is not published.
  void abandonOpenSweep();
  // Calls report(start, done, lastSequence) once for each volume whose MIPs have completed since
  // the last call, without waiting: `done` minus `start` is the MIPs' time on the endpoint
  // stream, `lastSequence` the sweep's last frame. A volume whose MIPs are still running when its
  // block is refilled is not reported.
  template <typename Report>
  void takeMipTimings(Report&& report);

  // The MIPs as a tunable stage "mip" (tune/tuning.hpp; none when volumes are off), timed on the
  // cineloop's first sweep of slots into projections of their own, on `endpoint` (after the
  // volumes' own work there). For the engine thread between frames, while no sweep is open.
  std::vector<tune::TunableStage> tunableStages(compute::Backend& backend, const Cineloop& cineloop,
                                                compute::Stream& endpoint);

  // Any thread. An empty lock until a volume is complete.
  process::VolumeLock lockLatest() const;
  std::uint64_t completed() const { return completed_.load(); }
  std::uint64_t abandoned() const { return abandoned_.load(); }

 private:
  struct Block {
    mutable std::shared_mutex mutex;  // readers share it; the engine owns it while refilling
    process::VolumeInfo info;
    process::VolumeView view;
    std::vector<bool> present;  // per slice, in the sweep being filled
    compute::DeviceBuffer<float> alongY, alongZ, alongX;
    std::unique_ptr<compute::Event> mipStart;  // the MIPs have begun
    std::unique_ptr<compute::Event> done;      // the MIPs have completed
    bool timingPending = false;                // done recorded, its time not yet reported
    std::unique_ptr<compute::Event> released;  // the endpoint stream is past the callbacks' work
    bool everReleased = false;                 // `released` was recorded at least once
  };
  struct Storage {
    std::vector<std::unique_ptr<Block>> blocks;
    std::atomic<int> latest{-1};  // block of the newest complete volume
  };

  std::shared_ptr<Storage> storage() const;

  mutable std::mutex storageMutex_;  // guards the pointer only
  std::shared_ptr<Storage> storage_;
  process::MipProjector mip_;
  int framesPerVolume_ = 0;
  process::ImageGeometry slice_;
  int open_ = -1;                // block being filled
  int lastSlice_ = -1;           // slice index of the previous frame
  std::uint64_t openSweep_ = 0;  // sequence - slice of the open sweep's frames
  int nextBlock_ = 0;
  std::unique_lock<std::shared_mutex> openLock_;  // on the open block
  std::uint64_t number_ = 0;                      // the next complete volume's number
  std::atomic<std::uint64_t> completed_{0}, abandoned_{0};
};

template <typename Report>
void VolumeAssembler::takeMipTimings(Report&& report) {
  if (!storage_) {
    return;
  }
  for (const std::unique_ptr<Block>& block : storage_->blocks) {
    if (block->timingPending && block->done->query()) {
      block->timingPending = false;
      report(*block->mipStart, *block->done, block->info.sequence.back());
    }
  }
}

}  // namespace cineflow::pipeline

#include "pipeline/volume_assembler.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

namespace cineflow::pipeline {

std::shared_ptr<VolumeAssembler::Storage> VolumeAssembler::storage() const {
  std::lock_guard lock(storageMutex_);
  return storage_;
}

void VolumeAssembler::configure(compute::Backend& backend, int framesPerVolume, int blocks,
                                const process::ImageGeometry& slice) {
  abandonOpenSweep();
  std::shared_ptr<Storage> fresh;
  if (framesPerVolume > 0) {
    if (blocks < 2) {
      throw std::invalid_argument("volumes need a cineloop of at least two sweeps");
    }
    if (slice.layers != 1) {
      throw std::invalid_argument("volumes are built of intensity slices only (no flow layers)");
    }
    const process::VolumeShape shape{framesPerVolume, slice.nz, slice.nx};
    mip_.configure(backend, shape);
    fresh = std::make_shared<Storage>();
    for (int b = 0; b < blocks; ++b) {
      auto block = std::make_unique<Block>();
      block->info.shape = shape;
      block->info.slice = slice;
      block->present.assign(static_cast<std::size_t>(framesPerVolume), false);
      block->alongY = compute::DeviceBuffer<float>(backend, shape.alongY());
      block->alongZ = compute::DeviceBuffer<float>(backend, shape.alongZ());
      block->alongX = compute::DeviceBuffer<float>(backend, shape.alongX());
      // Committed now, as the cineloop is: on the CPU backend each block's pages were otherwise
      // faulted in by the frame loop when its first volume completed, which under Drop (volumes
      // complete rarely) went on for minutes (cineflow soak saw resident memory grow 0.72 MiB
      // a block).
      for (const compute::DeviceBuffer<float>* mip :
           {&block->alongY, &block->alongZ, &block->alongX}) {
        backend.zeroBlocking(mip->data(), mip->bytes());
      }
      block->mipStart = backend.createEvent();
      block->done = backend.createEvent();
      block->released = backend.createSyncEvent();
      fresh->blocks.push_back(std::move(block));
    }
  }
  // Retire the old volumes: once every reader has let go, nothing can reach them any more.
  if (std::shared_ptr<Storage> old = storage()) {
    old->latest = -1;
    for (auto& block : old->blocks) {
      std::unique_lock wait(block->mutex);
    }
  }
  {
    std::lock_guard lock(storageMutex_);
    storage_ = std::move(fresh);
  }
  framesPerVolume_ = framesPerVolume;
  slice_ = slice;
  open_ = -1;
  lastSlice_ = -1;
  nextBlock_ = 0;
  number_ = 0;
  completed_ = 0;
  abandoned_ = 0;
}

int VolumeAssembler::slotFor(const acquire::FrameHeader& header, int slice,
                             compute::Stream& compute, const std::atomic<bool>& stop) {
  if (slice < 0 || slice >= framesPerVolume_) {
    throw std::runtime_error("a frame has slice index " + std::to_string(slice) +
                             ", outside the sweep of " + std::to_string(framesPerVolume_) +
                             " frames");
  }
  Storage& s = *storage_;
  const std::uint64_t sweep = header.sequence - static_cast<std::uint64_t>(slice);
  if (open_ < 0 || slice <= lastSlice_ || sweep != openSweep_) {
    abandonOpenSweep();  // the previous sweep ended early (a missing slice): not a volume
    open_ = nextBlock_;
    nextBlock_ = (nextBlock_ + 1) % static_cast<int>(s.blocks.size());
    Block& block = *s.blocks[static_cast<std::size_t>(open_)];
    if (s.latest.load() == open_) {
      s.latest = -1;  // the only complete volume is about to be overwritten
    }
    // Waits for VolumeLock holders; they hold the lock only while enqueuing work.
    openLock_ = std::unique_lock(block.mutex, std::defer_lock);
    while (!openLock_.try_lock()) {
      if (stop.load()) {
        throw std::runtime_error("stopped while a VolumeLock still held volume " +
                                 std::to_string(block.info.number));
      }
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    if (block.everReleased) {
      compute.wait(*block.released);  // the endpoint work reading this block comes first
    }
    openSweep_ = sweep;
    block.timingPending = false;  // MIPs still running a whole sweep later: not reported
    std::fill(block.present.begin(), block.present.end(), false);
    block.info.elevationM.assign(static_cast<std::size_t>(framesPerVolume_), 0.0);
    block.info.sequence.assign(static_cast<std::size_t>(framesPerVolume_), 0);
    block.info.timestampNs.assign(static_cast<std::size_t>(framesPerVolume_), 0);
  }
  lastSlice_ = slice;
  return open_ * framesPerVolume_ + slice;
}

std::vector<tune::TunableStage> VolumeAssembler::tunableStages(compute::Backend& backend,
                                                               const Cineloop& cineloop,
                                                               compute::Stream& endpoint) {
  if (framesPerVolume_ == 0) {
    return {};
  }
  const compute::DeviceSpan<float> slots = cineloop.slotsImage(0, framesPerVolume_);
  std::vector<tune::TunableStage> stages;
  stages.push_back(mip_.tunableStage(
      backend, compute::DeviceSpan<const float>(slots.data(), slots.size()), endpoint));
  return stages;
}

void VolumeAssembler::frameDispatched(const acquire::FrameHeader& header, int slice,
                                      const compute::Event& frameDone, const Cineloop& cineloop,
                                      compute::Stream& endpoint,
                                      const process::VolumeCallback& callback) {
  Storage& s = *storage_;
  Block& block = *s.blocks[static_cast<std::size_t>(open_)];
  const auto index = static_cast<std::size_t>(slice);
  block.present[index] = true;
  block.info.elevationM[index] = header.slice.elevationM;
  block.info.sequence[index] = header.sequence;
  block.info.timestampNs[index] = header.timestampNs;
  if (slice != framesPerVolume_ - 1) {
    return;
  }
  if (!std::all_of(block.present.begin(), block.present.end(), [](bool p) { return p; })) {
    abandonOpenSweep();
    return;
  }
  // Complete: every slice was written on the compute stream before `frameDone`.
  block.info.number = number_++;
  const compute::DeviceSpan<float> volume =
      cineloop.slotsImage(open_ * framesPerVolume_, framesPerVolume_);
  block.view = {compute::DeviceSpan<const float>(volume.data(), volume.size()),
                compute::DeviceSpan<const float>(block.alongY.data(), block.alongY.size()),
                compute::DeviceSpan<const float>(block.alongZ.data(), block.alongZ.size()),
                compute::DeviceSpan<const float>(block.alongX.data(), block.alongX.size())};
  endpoint.wait(frameDone);
  endpoint.record(*block.mipStart);
  mip_.enqueue(endpoint, block.view.volume, block.alongY.view(), block.alongZ.view(),
               block.alongX.view());
  endpoint.record(*block.done);
  block.timingPending = true;
  if (callback) {
    callback(process::VolumeEndpoint{block.info, block.view, endpoint, *block.done});
  }
  endpoint.record(*block.released);
  block.everReleased = true;
  const int finished = open_;
  openLock_.unlock();
  open_ = -1;
  lastSlice_ = -1;
  s.latest = finished;
  ++completed_;
}

void VolumeAssembler::abandonOpenSweep() {
  if (open_ < 0) {
    return;
  }
  if (lastSlice_ >= 0) {
    ++abandoned_;
  }
  openLock_ = {};
  open_ = -1;
  lastSlice_ = -1;
}

process::VolumeLock VolumeAssembler::lockLatest() const {
  constexpr int kAttempts = 4;  // the latest block moves at most once per sweep
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    const std::shared_ptr<Storage> s = storage();
    if (!s) {
      return {};
    }
    const int latest = s->latest.load();
    if (latest < 0) {
      return {};
    }
    const Block& block = *s->blocks[static_cast<std::size_t>(latest)];
    std::shared_lock lock(block.mutex, std::try_to_lock);
    if (lock && s->latest.load() == latest) {
      return process::VolumeLock(s, std::move(lock), &block.info, block.view, block.done.get());
    }
  }
  return {};
}

}  // namespace cineflow::pipeline

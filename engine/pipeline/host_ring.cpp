#include "pipeline/host_ring.hpp"

#include <algorithm>
#include <stdexcept>

namespace cineflow::pipeline {

void HostRing::configure(compute::Backend& backend, int count, std::size_t frameBytes,
                         std::size_t slotBytes) {
  if (count < 1) {
    throw std::invalid_argument("host ring needs at least 1 slot");
  }
  slotBytes = std::max(slotBytes, frameBytes);
  if (count != this->slotCount() || frameBytes != frameBytes_ || slotBytes != slotBytes_) {
    memory_ =
        compute::PinnedBuffer<std::byte>(backend, static_cast<std::size_t>(count) * slotBytes);
    frameBytes_ = frameBytes;
    slotBytes_ = slotBytes;
    headers_.assign(static_cast<std::size_t>(count), {});
    staged_.assign(static_cast<std::size_t>(count), {});
    state_.assign(static_cast<std::size_t>(count), SlotState::Free);
    fifo_.assign(static_cast<std::size_t>(count), -1);
  }
  reset();
}

void HostRing::reset() {
  std::lock_guard lock(mutex_);
  std::fill(state_.begin(), state_.end(), SlotState::Free);
  fifoHead_ = 0;
  fifoCount_ = 0;
  nextFree_ = 0;
  closed_ = false;
  stopRequested_ = false;
  skippingUnit_ = false;
}

int HostRing::acquireFree(bool wait) {
  std::unique_lock lock(mutex_);
  const int n = slotCount();
  auto findFree = [&]() -> int {
    for (int i = 0; i < n; ++i) {
      const int candidate = (nextFree_ + i) % n;
      if (state_[static_cast<std::size_t>(candidate)] == SlotState::Free) {
        return candidate;
      }
    }
    return -1;
  };
  int slot = findFree();
  if (slot < 0 && wait) {
    freed_.wait(lock, [&] { return stopRequested_ || (slot = findFree()) >= 0; });
  }
  if (slot < 0 || stopRequested_) {
    return -1;
  }
  state_[static_cast<std::size_t>(slot)] = SlotState::Filling;
  nextFree_ = (slot + 1) % n;
  return slot;
}

void HostRing::publish(int slot) {
  {
    std::lock_guard lock(mutex_);
    state_[static_cast<std::size_t>(slot)] = SlotState::Filled;
    fifo_[(fifoHead_ + fifoCount_) % fifo_.size()] = slot;
    ++fifoCount_;
  }
  filled_.notify_one();
}

void HostRing::discard(int slot) {
  {
    std::lock_guard lock(mutex_);
    state_[static_cast<std::size_t>(slot)] = SlotState::Free;
  }
  freed_.notify_one();
}

void HostRing::close() {
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
  }
  filled_.notify_all();
}

void HostRing::requestStop() {
  {
    std::lock_guard lock(mutex_);
    stopRequested_ = true;
  }
  freed_.notify_all();
}

int HostRing::takeFilled() {
  std::unique_lock lock(mutex_);
  filled_.wait(lock, [&] { return fifoCount_ > 0 || closed_; });
  if (fifoCount_ == 0) {
    return -1;
  }
  const int slot = fifo_[fifoHead_];
  fifoHead_ = (fifoHead_ + 1) % fifo_.size();
  --fifoCount_;
  state_[static_cast<std::size_t>(slot)] = SlotState::InFlight;
  return slot;
}

int HostRing::takeNewest(std::vector<acquire::FrameHeader>& skipped) {
  std::unique_lock lock(mutex_);
  const auto startsUnit = [this](std::size_t fromHead) {
    const int slot = fifo_[(fifoHead_ + fromHead) % fifo_.size()];
    return headers_[static_cast<std::size_t>(slot)].slice.sliceIndex == 0;
  };
  const auto letHeadGo = [&] {
    const int slot = fifo_[fifoHead_];
    skipped.push_back(headers_[static_cast<std::size_t>(slot)]);
    state_[static_cast<std::size_t>(slot)] = SlotState::Free;
    fifoHead_ = (fifoHead_ + 1) % fifo_.size();
    --fifoCount_;
    freed_.notify_all();  // the producer may wait for the slot
  };
  const auto noFreeSlot = [this] {
    return std::none_of(state_.begin(), state_.end(),
                        [](SlotState state) { return state == SlotState::Free; });
  };
  for (;;) {
    filled_.wait(lock, [&] { return fifoCount_ > 0 || closed_; });
    if (fifoCount_ == 0) {
      return -1;
    }
    if (skippingUnit_) {  // a sweep let go whole: its frames go as they come
      while (fifoCount_ > 0 && !startsUnit(0) && skipped.size() < skipped.capacity()) {
        letHeadGo();
      }
      if (fifoCount_ == 0 || skipped.size() == skipped.capacity()) {
        if (!skipped.empty()) {
          return kRetake;  // the caller reports these first (its list has no more room)
        }
        continue;
      }
      skippingUnit_ = false;
    }
    // Only from the start of a unit: a sweep under way is finished, not abandoned mid-way.
    if (startsUnit(0)) {
      // The newest waiting frame that starts a unit, counted from the head (0: the head).
      std::size_t newest = 0;
      for (std::size_t i = 1; i < fifoCount_; ++i) {
        newest = startsUnit(i) ? i : newest;
      }
      for (std::size_t i = 0; i < newest && skipped.size() < skipped.capacity(); ++i) {
        letHeadGo();
      }
      if (!startsUnit(0)) {
        return kRetake;  // stopped short for room: the caller reports, then asks again
      }
      // Behind at the start of a sweep with none newer waiting (the source waits for a slot):
      // this sweep is let go whole, so that the source never waits for more than one sweep.
      if (newest == 0 && fifoCount_ >= 2 && !startsUnit(1) && noFreeSlot()) {
        skippingUnit_ = true;
        letHeadGo();
        continue;
      }
    }
    const int slot = fifo_[fifoHead_];
    fifoHead_ = (fifoHead_ + 1) % fifo_.size();
    --fifoCount_;
    state_[static_cast<std::size_t>(slot)] = SlotState::InFlight;
    return slot;
  }
}

void HostRing::release(int slot) noexcept {
  {
    std::lock_guard lock(mutex_);
    state_[static_cast<std::size_t>(slot)] = SlotState::Free;
  }
  freed_.notify_one();
}

std::span<std::byte> HostRing::data(int slot) const {
  return slotData(slot).first(frameBytes_);
}

std::span<std::byte> HostRing::slotData(int slot) const {
  return std::span<std::byte>(memory_.data() + static_cast<std::size_t>(slot) * slotBytes_,
                              slotBytes_);
}

int HostRing::occupancy() const {
  std::lock_guard lock(mutex_);
  return static_cast<int>(std::count_if(state_.begin(), state_.end(),
                                        [](SlotState s) { return s != SlotState::Free; }));
}

}  // namespace cineflow::pipeline

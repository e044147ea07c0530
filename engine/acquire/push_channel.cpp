#include "acquire/push_channel.hpp"

#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "acquire/frame_source.hpp"

namespace cineflow::acquire {

PushChannel::Pushed PushChannel::push(std::span<const std::byte> frame, const SliceInfo& slice,
                                      std::optional<std::chrono::nanoseconds> timeout) {
  const std::byte* data = frame.data();
  return push(
      frame.size(),
      [data](std::span<std::byte> slot) {
        std::memcpy(slot.data(), data, slot.size());  // the one copy: into the host slot
      },
      slice, timeout);
}

PushChannel::Pushed PushChannel::push(std::size_t bytes, const Fill& fill, const SliceInfo& slice,
                                      std::optional<std::chrono::nanoseconds> timeout) {
  if (bytes != frameBytes_) {
    throw std::invalid_argument("a pushed frame has " + std::to_string(bytes) +
                                " bytes; this source's frames have " + std::to_string(frameBytes_));
  }
  std::unique_lock lock(mutex_);
  const auto ready = [&] { return !running_ || closed_ || (asking_ && !filled_); };
  if (timeout) {
    if (!askedCv_.wait_for(lock, *timeout, ready)) {
      return Pushed::TimedOut;
    }
  } else {
    askedCv_.wait(lock, ready);
  }
  if (closed_) {
    return Pushed::Closed;
  }
  if (!running_) {
    return Pushed::NotRunning;
  }
  const bool kept = !dst_.empty();
  if (kept) {
    fill(dst_);  // throws before anything is counted: the reader keeps waiting
    if (slice_ != nullptr) {
      *slice_ = slice;
    }
  }
  ++pushed_;
  dropped_ += kept ? 0 : 1;
  filled_ = true;
  filledCv_.notify_all();
  return kept ? Pushed::Taken : Pushed::Dropped;
}

void PushChannel::wait(std::span<std::byte> dst, SliceInfo* slice) {
  std::unique_lock lock(mutex_);
  if (!running_) {
    throw SourceStopped();
  }
  if (closed_) {
    throw SourceEnded();
  }
  dst_ = dst;
  slice_ = slice;
  filled_ = false;
  asking_ = true;
  askedSince_ = std::chrono::steady_clock::now();
  askedCv_.notify_all();
  filledCv_.wait(lock, [&] { return filled_ || !running_ || closed_; });
  const bool got = filled_;
  asking_ = false;
  filled_ = false;
  dst_ = {};
  slice_ = nullptr;
  if (got) {
    return;
  }
  if (!running_) {
    throw SourceStopped();
  }
  throw SourceEnded();
}

void PushChannel::take(std::span<std::byte> dst, SliceInfo& slice) {
  if (dst.size() != frameBytes_) {
    throw SourceError("push source: a host slot of " + std::to_string(dst.size()) +
                      " bytes for frames of " + std::to_string(frameBytes_));
  }
  wait(dst, &slice);
}

void PushChannel::skip() {
  wait({}, nullptr);
}

void PushChannel::close() {
  std::lock_guard lock(mutex_);
  closed_ = true;
  askedCv_.notify_all();
  filledCv_.notify_all();
}

void PushChannel::start() {
  std::lock_guard lock(mutex_);
  running_ = true;
  closed_ = false;
}

void PushChannel::stop() {
  std::lock_guard lock(mutex_);
  running_ = false;
  askedCv_.notify_all();
  filledCv_.notify_all();
}

std::uint64_t PushChannel::pushed() const {
  std::lock_guard lock(mutex_);
  return pushed_;
}

std::uint64_t PushChannel::dropped() const {
  std::lock_guard lock(mutex_);
  return dropped_;
}

bool PushChannel::closed() const {
  std::lock_guard lock(mutex_);
  return closed_;
}

std::string PushChannel::status() const {
  std::lock_guard lock(mutex_);
  if (!asking_ || filled_) {
    return {};
  }
  const double waited =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - askedSince_).count();
  if (waited < 1.0) {
    return {};
  }
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.0f", waited);
  return std::string("waiting for the program's next frame: nothing for ") + seconds + " s";
}

}  // namespace cineflow::acquire

#pragma once
// PushChannel: frames a program pushes from its own loop (a vendor SDK's callback, a scanner
// script) handed straight to the engine's acquisition thread. A modality's push source
// (ultrasound/push_source.hpp, oct/oct_push_source.hpp) reads from it; the program keeps the
// channel (a shared_ptr) and pushes.
//
// The handoff is one copy: push() copies the frame into the host ring slot the acquisition thread
// is waiting to fill. It waits for that thread as a sender waits for a scanner's consumer: under
// Block the acquisition thread asks only when a slot is free, so push() waits while processing is
// behind and nothing is lost; under Drop it asks at once and, with no slot free, lets the frame
// go (push() returns Dropped; the engine counts it). A push while no run is going is refused
// (NotRunning) rather than kept waiting; close() says the program has no more frames, which
// ends the run (the engine finishes after the frames it has).
//
// Threads: any number of pushers (each frame goes whole to one read); one reader, the
// acquisition thread; start(), stop() and close() from any thread.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>

#include "acquire/frame.hpp"
#include "acquire/frame_source.hpp"

namespace cineflow::acquire {

class PushChannel {
 public:
  explicit PushChannel(std::size_t frameBytes) : frameBytes_(frameBytes) {}
  PushChannel(const PushChannel&) = delete;
  PushChannel& operator=(const PushChannel&) = delete;

  std::size_t frameBytes() const { return frameBytes_; }

  enum class Pushed {
    Taken,       // copied into a host slot: it will be imaged
    Dropped,     // Drop policy with no slot free: let go, counted by the engine
    NotRunning,  // no run is going (before start, after stop or a failure): not taken
    Closed,      // close() ran: not taken
    TimedOut     // `timeout` passed before the acquisition thread asked for a frame
  };
  // Hands `frame` (exactly frameBytes(), else std::invalid_argument) to the acquisition thread,
  // waiting until it asks for one (at most `timeout`; nullopt: as long as it takes).
  Pushed push(std::span<const std::byte> frame, const SliceInfo& slice = {},
              std::optional<std::chrono::nanoseconds> timeout = std::nullopt);
  // The same for a frame of `bytes` (exactly frameBytes()) that `fill` copies into the slot it is
  // given (a frame in another memory: a GPU array copied to the host slot). `fill` runs on the
  // pusher's thread, once, only when the frame is kept; what it throws reaches the pusher and the
  // reader waits on for the next frame.
  using Fill = std::function<void(std::span<std::byte> slot)>;
  Pushed push(std::size_t bytes, const Fill& fill, const SliceInfo& slice = {},
              std::optional<std::chrono::nanoseconds> timeout = std::nullopt);
  // The program has no more frames: reads after the last pushed one throw SourceEnded.
  void close();

  // The source's side. start(): a run begins (reopens a closed channel); stop(): it ends, a
  // waiting take() throws SourceStopped and pushes are refused.
  void start();
  void stop();
  // Waits for the next pushed frame and has it copied into `dst` (throws SourceStopped after
  // stop(), SourceEnded after close()).
  void take(std::span<std::byte> dst, SliceInfo& slice);
  // The same, the frame let go (the engine had no free slot).
  void skip();

  std::uint64_t pushed() const;   // frames handed over (taken or dropped) since construction
  std::uint64_t dropped() const;  // of them, let go
  bool closed() const;
  // While the reader has waited more than a second: "waiting for the program's next frame:
  // nothing for 3 s"; "" otherwise.
  std::string status() const;

 private:
  void wait(std::span<std::byte> dst, SliceInfo* slice);

  const std::size_t frameBytes_;
  mutable std::mutex mutex_;
  std::condition_variable askedCv_;   // a reader asks, or the channel stops or closes
  std::condition_variable filledCv_;  // a pusher filled the request, or stop / close
  bool running_ = false;
  bool closed_ = false;
  bool asking_ = false;       // a reader waits for a frame
  bool filled_ = false;       // and a pusher has given it one
  std::span<std::byte> dst_;  // where the frame goes (empty: skip)
  SliceInfo* slice_ = nullptr;
  std::uint64_t pushed_ = 0, dropped_ = 0;
  std::chrono::steady_clock::time_point askedSince_{};
};

// What every modality's push source does alike: a modality's source type (`Base`, derived from
// FrameSource) reading its frames from a channel the program keeps. The program paces (frame rate
// 0); the sequence is endless until the program's close(); Drop lets a frame go through skip().
template <class Base>
class PushReceiving : public Base {
 public:
  double frameRateHz() const override { return 0; }
  std::uint64_t frameCount() const override { return ~std::uint64_t{0}; }
  void readFrame(std::uint64_t, std::span<std::byte> dst, SliceInfo& slice) override {
    channel_->take(dst, slice);
  }
  void skipFrame(std::uint64_t) override { channel_->skip(); }
  void startAcquisition() override { channel_->start(); }
  void stopAcquisition() override { channel_->stop(); }
  std::string liveStatus() const override { return channel_->status(); }

 protected:
  explicit PushReceiving(std::shared_ptr<PushChannel> channel) : channel_(std::move(channel)) {}
  // Call once the derived source knows its frames: throws std::invalid_argument when the
  // channel's frames have another size.
  void checkChannel() const {
    if (channel_ == nullptr || channel_->frameBytes() != this->frameBytes()) {
      throw std::invalid_argument("push source: the channel's frames have " +
                                  std::to_string(channel_ ? channel_->frameBytes() : 0) +
                                  " bytes, these frames " + std::to_string(this->frameBytes()));
    }
  }

  std::shared_ptr<PushChannel> channel_;
};

}  // namespace cineflow::acquire

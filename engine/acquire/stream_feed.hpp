#pragma once
// StreamFeed: the live bookkeeping of a network stream (acquire/stream_receiver.hpp) that every
// modality's stream source shares: waiting for the sender's header, frames in sequence order,
// gaps in the sender's sequence numbers counted as lost, malformed messages counted and skipped,
// a sender that goes quiet or finishes shown as "waiting for frames", and a wait that stop()
// ends. What the header's fields mean is the owning source's business.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <span>
#include <string>

#include "acquire/frame_source.hpp"
#include "acquire/stream_receiver.hpp"

namespace cineflow::acquire {

class StreamFeed {
 public:
  // Listens on `endpoint` and waits for the first header, telling `progress` (may be empty)
  // every half second what it waits for; a progress that throws abandons the wait. Throws
  // SourceError when the endpoint cannot be bound or the header is not a cineflow.stream/1 one.
  StreamFeed(const std::string& endpoint, const ProgressFn& progress);

  const nlohmann::json& header() const { return header_; }
  const std::string& endpoint() const { return receiver_.endpoint(); }
  // The rate the header states (its "frame_rate_hz", 0 when absent): only for how long a silence
  // counts as the sender being gone.
  void setNominalRate(double hz);

  // Whether a header that arrives later (a sender that restarted, or one repeating its header)
  // still describes the frames this feed was opened for.
  using SameStream = std::function<bool(const nlohmann::json& header)>;
  // Waits for the next frame and receives its bytes into `dst` (all of them: a frame of another
  // size is malformed). Returns the frame's JSON. Throws SourceStopped once stop() ran, and
  // SourceError when a header describes other frames ("the sender's stream changed").
  nlohmann::json nextFrame(std::span<std::byte> dst, const SameStream& sameStream);

  void start();  // a run begins: the next frame starts the sequence afresh
  void stop();   // any thread: ends a nextFrame() wait

  std::uint64_t lost() const { return lost_; }
  std::uint64_t malformed() const { return malformed_; }
  // "" while frames arrive; otherwise what the operator should know, e.g. "waiting for frames on
  // tcp://0.0.0.0:5555: nothing for 4 s", "the sender finished; waiting for frames on ...",
  // with malformed messages counted and the last one's problem.
  std::string status() const;

 private:
  void noteMalformed(const std::string& problem);

  StreamReceiver receiver_;
  nlohmann::json header_;
  std::atomic<bool> stopping_{false};
  std::atomic<std::uint64_t> lost_{0}, malformed_{0};
  std::atomic<std::int64_t> lastMessageNs_{0};  // steady clock of the last frame (or start)
  std::atomic<std::int64_t> silenceNs_;         // quiet for longer: the sender is gone
  std::atomic<bool> finished_{false};           // the sender said "end"
  bool expecting_ = false;                      // next frame's sequence is known
  std::uint64_t expectedSequence_ = 0;
  mutable std::mutex problemMutex_;
  std::string lastProblem_;
};

}  // namespace cineflow::acquire

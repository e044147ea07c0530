#pragma once
// StreamFeed: the live bookkeeping of a network stream (acquire/stream_receiver.hpp) that every
// modality's stream source shares: waiting for the sender's header (and, for a source that
// measures something from it, its first frame), frames in sequence order, gaps in the sender's
// sequence numbers and truncated frames counted as lost, a second sender's frames left out and
// counted, malformed messages counted and skipped, a sender that goes quiet or finishes shown as
// "waiting for frames" (or, when asked, the end of the source), and a wait that stop() ends. What
// the header's fields mean is the owning source's business.
//
// One sender streams at a time. The feed follows the connection its messages came on; a frame,
// header or "end" on another connection while that one is still open and has not said "end" is
// a second sender's, left out (frames counted). Once the followed sender closed its connection
// (it finished, or its process ended) or said "end", the next sender's messages are followed.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

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
  // Waits for the stream's first frame of `frameBytes` bytes, telling `progress` as the
  // constructor does, and keeps it: the first nextFrame() hands it out. For a source that
  // measures the stream from its echoes before it can be configured. Throws like nextFrame, and
  // what `progress` throws.
  std::span<const std::byte> waitForFirstFrame(std::size_t frameBytes, const ProgressFn& progress,
                                               const SameStream& sameStream);

  // Waits for the next frame and receives its bytes into `dst` (all of them: a frame of another
  // size is truncated, counted and left out). Returns the frame's JSON. Throws SourceStopped once
  // stop() ran, SourceEnded when the sender said "end" and endWithSender(true) was asked, and
  // SourceError when a header describes other frames ("the sender's stream changed").
  nlohmann::json nextFrame(std::span<std::byte> dst, const SameStream& sameStream);

  void start();  // a run begins: the next frame starts the sequence afresh
  void stop();   // any thread: ends a nextFrame() wait
  // With true, the sender's "end" ends the feed (nextFrame throws SourceEnded) instead of a wait
  // for a sender to start again. Call before a run.
  void endWithSender(bool end) { endWithSender_ = end; }

  // Frames of this stream that never arrived whole (gaps and truncated frames).
  std::uint64_t lost() const { return lostFramesByKind().ofThisStream(); }
  LostFrames lostFramesByKind() const { return {gaps_, truncated_, otherSender_}; }
  std::uint64_t malformed() const { return malformed_; }
  // "" while frames arrive; otherwise what the operator should know, e.g. "waiting for frames on
  // tcp://0.0.0.0:5555: nothing for 4 s", "the sender finished; waiting for frames on ...",
  // with malformed messages counted and the last one's problem.
  std::string status() const;

 private:
  // What `message` means for the feed, counted; the frame's JSON when it is one to deliver (its
  // bytes are then where receive() put them).
  std::optional<nlohmann::json> take(StreamReceiver::Message& message,
                                     const SameStream& sameStream);
  // Whether a message on `connection` comes from a second sender; when not, follows it.
  bool fromSecondSender(int connection);
  void noteSequence(std::uint64_t sequence);  // counts a gap before it
  void noteProblem(std::atomic<std::uint64_t>& count, const std::string& problem);

  StreamReceiver receiver_;
  nlohmann::json header_;
  std::atomic<bool> stopping_{false};
  std::atomic<std::uint64_t> gaps_{0}, truncated_{0}, otherSender_{0}, malformed_{0};
  bool endWithSender_ = false;
  int followed_ = -1;             // the connection whose messages are taken
  std::vector<std::byte> first_;  // waitForFirstFrame's frame until nextFrame hands it out
  nlohmann::json firstMeta_;      // its JSON; null once handed out
  std::atomic<std::int64_t> lastMessageNs_{0};  // steady clock of the last frame (or start)
  std::atomic<std::int64_t> silenceNs_;         // quiet for longer: the sender is gone
  std::atomic<bool> finished_{false};           // the sender said "end"
  bool expecting_ = false;                      // next frame's sequence is known
  std::uint64_t expectedSequence_ = 0;
  mutable std::mutex problemMutex_;
  std::string lastProblem_;
};

}  // namespace cineflow::acquire

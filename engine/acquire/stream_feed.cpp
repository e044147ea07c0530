#include "acquire/stream_feed.hpp"

#include <algorithm>
#include <cmath>

#include "profile/stage_probe.hpp"

namespace cineflow::acquire {
namespace {

using namespace std::chrono_literals;

// How often a wait looks at stop() and reports progress.
constexpr auto kPollSlice = 100ms;
// A sender silent for this long (or three of its frame periods, when slower) is shown as gone.
constexpr std::int64_t kSilenceNs = 1'000'000'000;

std::string secondsText(std::int64_t ns) {
  return std::to_string(static_cast<long long>(std::llround(static_cast<double>(ns) * 1e-9))) +
         " s";
}

}  // namespace

StreamFeed::StreamFeed(const std::string& endpoint, const ProgressFn& progress)
    : receiver_(endpoint), silenceNs_(kSilenceNs) {
  const std::int64_t begin = profile::steadyNowNs();
  std::int64_t reported = -1;
  std::uint64_t skipped = 0;
  for (;;) {
    const std::int64_t waited = profile::steadyNowNs() - begin;
    if (progress && waited / 500'000'000 != reported) {
      reported = waited / 500'000'000;
      progress(0.0,
               "waiting for a sender's stream header on " + receiver_.endpoint() + " (" +
                   secondsText(waited) +
                   (skipped > 0 ? ", " + std::to_string(skipped) + " messages before it" : "") +
                   ")");
    }
    StreamReceiver::Message message = receiver_.receive(kPollSlice, {});
    if (message.kind == StreamReceiver::Kind::Header) {
      header_ = std::move(message.meta);
      followed_ = message.connection;
      break;
    }
    if (message.kind != StreamReceiver::Kind::Nothing) {
      ++skipped;  // frames of a stream Cineflow does not know yet, an end, or something malformed
    }
  }
  const auto schema = header_.find("schema");
  if (schema == header_.end() || *schema != kStreamSchema) {
    throw SourceError("network stream on " + receiver_.endpoint() +
                      ": the header's \"schema\" is " +
                      (schema == header_.end() ? std::string("missing") : schema->dump()) +
                      ", expected \"" + kStreamSchema + "\"");
  }
  if (progress) {
    progress(1.0, "stream header received on " + receiver_.endpoint());
  }
}

void StreamFeed::setNominalRate(double hz) {
  if (hz > 0 && std::isfinite(hz)) {
    silenceNs_ = std::max<std::int64_t>(kSilenceNs, static_cast<std::int64_t>(3e9 / hz));
  }
}

void StreamFeed::start() {
  stopping_ = false;
  expecting_ = false;
  lastMessageNs_ = profile::steadyNowNs();
}

void StreamFeed::stop() {
  stopping_ = true;
}

std::span<const std::byte> StreamFeed::waitForFirstFrame(std::size_t frameBytes,
                                                         const ProgressFn& progress,
                                                         const SameStream& sameStream) {
  first_.resize(frameBytes);
  const std::int64_t begin = profile::steadyNowNs();
  std::int64_t reported = -1;
  for (;;) {
    const std::int64_t waited = profile::steadyNowNs() - begin;
    if (progress && waited / 500'000'000 != reported) {
      reported = waited / 500'000'000;
      progress(0.0, "waiting for the first frame on " + receiver_.endpoint() +
                        " to measure its echoes' band (" + secondsText(waited) + ")");
    }
    StreamReceiver::Message message = receiver_.receive(kPollSlice, first_);
    if (std::optional<nlohmann::json> frame = take(message, sameStream)) {
      firstMeta_ = std::move(*frame);
      if (progress) {
        progress(1.0, "first frame received on " + receiver_.endpoint());
      }
      return first_;
    }
  }
}

nlohmann::json StreamFeed::nextFrame(std::span<std::byte> dst, const SameStream& sameStream) {
  if (!firstMeta_.is_null()) {
    std::copy(first_.begin(), first_.end(), dst.begin());  // the same size: the same stream
    nlohmann::json frame = std::move(firstMeta_);
    firstMeta_ = nullptr;
    noteSequence(frame["sequence"].get<std::uint64_t>());
    return frame;
  }
  for (;;) {
    if (stopping_) {
      throw SourceStopped();
    }
    if (finished_ && endWithSender_) {
      throw SourceEnded();
    }
    StreamReceiver::Message message = receiver_.receive(kPollSlice, dst);
    if (std::optional<nlohmann::json> frame = take(message, sameStream)) {
      noteSequence((*frame)["sequence"].get<std::uint64_t>());
      return std::move(*frame);
    }
  }
}

std::optional<nlohmann::json> StreamFeed::take(StreamReceiver::Message& message,
                                               const SameStream& sameStream) {
  using Kind = StreamReceiver::Kind;
  if (message.kind == Kind::Nothing) {
    return std::nullopt;
  }
  if (message.kind == Kind::Malformed) {
    noteProblem(malformed_, message.problem);
    return std::nullopt;
  }
  if (fromSecondSender(message.connection)) {
    if (message.kind == Kind::Frame || message.kind == Kind::Truncated) {
      ++otherSender_;
    }
    return std::nullopt;  // its header or "end" says nothing about the followed stream
  }
  switch (message.kind) {
    case Kind::End:
      finished_ = true;
      expecting_ = false;  // a sender that starts again may start its sequence again
      return std::nullopt;
    case Kind::Header:
      if (!sameStream(message.meta)) {
        throw SourceError("network stream on " + receiver_.endpoint() +
                          ": the sender's stream changed (a header describing other frames); "
                          "open the stream again to image it");
      }
      return std::nullopt;
    case Kind::Truncated:
      // Its sequence number is known: a gap before it is a gap, and it is not one twice.
      noteSequence(message.meta["sequence"].get<std::uint64_t>());
      noteProblem(truncated_, message.problem);
      return std::nullopt;
    default:  // a frame
      finished_ = false;
      lastMessageNs_ = profile::steadyNowNs();
      return std::move(message.meta);
  }
}

bool StreamFeed::fromSecondSender(int connection) {
  if (connection != followed_ && followed_ >= 0 && !finished_ && receiver_.connected(followed_)) {
    return true;
  }
  if (connection != followed_) {
    finished_ = false;  // a new sender: what the last one said is history
  }
  followed_ = connection;
  return false;
}

void StreamFeed::noteSequence(std::uint64_t sequence) {
  if (expecting_ && sequence > expectedSequence_) {
    gaps_ += sequence - expectedSequence_;
  }
  // A sequence that goes back is a sender that restarted: a new count, nothing lost.
  expecting_ = true;
  expectedSequence_ = sequence + 1;
}

void StreamFeed::noteProblem(std::atomic<std::uint64_t>& count, const std::string& problem) {
  ++count;
  std::lock_guard lock(problemMutex_);
  lastProblem_ = problem;
}

std::string StreamFeed::status() const {
  std::string text;
  const std::int64_t quiet = profile::steadyNowNs() - lastMessageNs_;
  if (finished_) {
    text = "the sender finished; waiting for frames on " + receiver_.endpoint();
  } else if (lastMessageNs_ != 0 && quiet > silenceNs_) {
    text = "waiting for frames on " + receiver_.endpoint() + ": nothing for " + secondsText(quiet);
  }
  const std::uint64_t malformed = malformed_;
  const std::uint64_t truncated = truncated_;
  if (malformed + truncated > 0) {
    std::lock_guard lock(problemMutex_);
    text += (text.empty() ? "" : "; ") +
            (malformed > 0 ? std::to_string(malformed) + " malformed message" +
                                 (malformed == 1 ? "" : "s") + " skipped"
                           : std::string()) +
            (malformed > 0 && truncated > 0 ? ", " : "") +
            (truncated > 0 ? std::to_string(truncated) + " truncated frame" +
                                 (truncated == 1 ? "" : "s") + " left out"
                           : std::string()) +
            " (last: " + lastProblem_ + ")";
  }
  if (const std::uint64_t others = otherSender_; others > 0) {
    text += (text.empty() ? "" : "; ") + framesText(others) +
            " from a second sender left out (one sender at a time)";
  }
  return text;
}

}  // namespace cineflow::acquire

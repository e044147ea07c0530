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

nlohmann::json StreamFeed::nextFrame(std::span<std::byte> dst, const SameStream& sameStream) {
  for (;;) {
    if (stopping_) {
      throw SourceStopped();
    }
    StreamReceiver::Message message = receiver_.receive(kPollSlice, dst);
    switch (message.kind) {
      case StreamReceiver::Kind::Nothing:
        break;
      case StreamReceiver::Kind::Malformed:
        noteMalformed(message.problem);
        break;
      case StreamReceiver::Kind::End:
        finished_ = true;
        expecting_ = false;  // a sender that starts again may start its sequence again
        break;
      case StreamReceiver::Kind::Header:
        if (!sameStream(message.meta)) {
          throw SourceError("network stream on " + receiver_.endpoint() +
                            ": the sender's stream changed (a header describing other frames); "
                            "open the stream again to image it");
        }
        break;
      case StreamReceiver::Kind::Frame: {
        const std::uint64_t sequence = message.meta["sequence"].get<std::uint64_t>();
        if (expecting_ && sequence > expectedSequence_) {
          lost_ += sequence - expectedSequence_;
        }
        // A sequence that goes back is a sender that restarted: a new count, nothing lost.
        expecting_ = true;
        expectedSequence_ = sequence + 1;
        finished_ = false;
        lastMessageNs_ = profile::steadyNowNs();
        return std::move(message.meta);
      }
    }
  }
}

void StreamFeed::noteMalformed(const std::string& problem) {
  ++malformed_;
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
  if (const std::uint64_t count = malformed_; count > 0) {
    std::lock_guard lock(problemMutex_);
    text += (text.empty() ? "" : "; ") + std::to_string(count) + " malformed message" +
            (count == 1 ? "" : "s") + " skipped (last: " + lastProblem_ + ")";
  }
  return text;
}

}  // namespace cineflow::acquire

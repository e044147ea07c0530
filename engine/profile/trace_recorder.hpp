#pragma once
// TraceRecorder: timed spans on named tracks (host threads and device streams), written as Chrome
// trace JSON that Perfetto (ui.perfetto.dev) and chrome://tracing open. Spans of one frame carry
// its sequence number and are linked across tracks by flow arrows, so a frame can be followed from
// the source through upload and every stage. Times are host steady-clock nanoseconds (the clock of
// FrameHeader::timestampNs); device spans are placed on it through an anchor event (the engine's).
//
// Thread safety: every method may be called from any thread. Storage for `capacity` spans is
// reserved up front and add() never allocates; when full it records nothing more and counts what
// it dropped (dropped()).

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace cineflow::profile {

class TraceRecorder {
 public:
  static constexpr std::size_t kNameBytes = 24;  // span names are cut to 23 characters

  explicit TraceRecorder(std::size_t capacity = std::size_t{1} << 20);

  // The id of the track named `name`, registered on first use (allocates: call before a run).
  int track(const std::string& name);
  // A span [startNs, endNs] on `track`; `frame` is the frame's sequence number, or -1.
  void add(int track, std::string_view name, std::int64_t startNs, std::int64_t endNs,
           std::int64_t frame = -1);

  std::size_t size() const;
  std::size_t dropped() const;
  void clear();

  // {"traceEvents": [...], "displayTimeUnit": "ms", "otherData": {...}}: a process "cineflow",
  // one thread per track (named, in registration order), an "X" event per span (microseconds
  // from the first span), and per frame an "s" / "t" / "f" flow through its spans in time order.
  std::string chromeJson() const;

 private:
  struct Span {
    char name[kNameBytes];
    int track;
    std::int64_t startNs, endNs, frame;
  };
  mutable std::mutex mutex_;
  std::vector<std::string> tracks_;
  std::vector<Span> spans_;
  std::size_t capacity_;
  std::size_t dropped_ = 0;
};

}  // namespace cineflow::profile

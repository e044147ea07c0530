#include "profile/trace_recorder.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>

#include "base/text_file.hpp"

namespace cineflow::profile {
namespace {

std::string micros(std::int64_t ns) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", static_cast<double>(ns) * 1e-3);
  return text;
}

}  // namespace

TraceRecorder::TraceRecorder(std::size_t capacity) : capacity_(capacity) {
  spans_.reserve(capacity_);
}

int TraceRecorder::track(const std::string& name) {
  std::lock_guard lock(mutex_);
  const auto it = std::find(tracks_.begin(), tracks_.end(), name);
  if (it != tracks_.end()) {
    return static_cast<int>(it - tracks_.begin());
  }
  tracks_.push_back(name);
  return static_cast<int>(tracks_.size()) - 1;
}

void TraceRecorder::add(int track, std::string_view name, std::int64_t startNs, std::int64_t endNs,
                        std::int64_t frame) {
  std::lock_guard lock(mutex_);
  if (spans_.size() >= capacity_) {
    ++dropped_;
    return;
  }
  Span span{};
  const std::size_t length = std::min(name.size(), kNameBytes - 1);
  std::memcpy(span.name, name.data(), length);
  span.name[length] = '\0';
  span.track = track;
  span.startNs = startNs;
  span.endNs = std::max(startNs, endNs);
  span.frame = frame;
  spans_.push_back(span);
}

std::size_t TraceRecorder::size() const {
  std::lock_guard lock(mutex_);
  return spans_.size();
}

std::size_t TraceRecorder::dropped() const {
  std::lock_guard lock(mutex_);
  return dropped_;
}

void TraceRecorder::clear() {
  std::lock_guard lock(mutex_);
  spans_.clear();
  dropped_ = 0;
}

std::string TraceRecorder::chromeJson() const {
  std::vector<Span> spans;
  std::vector<std::string> tracks;
  std::size_t dropped = 0;
  {
    std::lock_guard lock(mutex_);
    spans = spans_;
    tracks = tracks_;
    dropped = dropped_;
  }
  std::int64_t origin = 0;
  if (!spans.empty()) {
    origin = std::min_element(spans.begin(), spans.end(), [](const Span& a, const Span& b) {
               return a.startNs < b.startNs;
             })->startNs;
  }
  std::string json = "{\"traceEvents\": [\n";
  json +=
      R"({"ph": "M", "name": "process_name", "pid": 1, "tid": 0, "args": {"name": "cineflow"}})";
  for (std::size_t t = 0; t < tracks.size(); ++t) {
    const std::string tid = std::to_string(t + 1);
    json += ",\n{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 1, \"tid\": " + tid +
            ", \"args\": {\"name\": " + base::jsonString(tracks[t]) + "}}";
    json += ",\n{\"ph\": \"M\", \"name\": \"thread_sort_index\", \"pid\": 1, \"tid\": " + tid +
            ", \"args\": {\"sort_index\": " + tid + "}}";
  }
  std::map<std::int64_t, std::vector<const Span*>> frames;
  for (const Span& span : spans) {
    json += ",\n{\"ph\": \"X\", \"name\": " + base::jsonString(span.name) +
            ", \"cat\": \"cineflow\", \"pid\": 1, \"tid\": " + std::to_string(span.track + 1) +
            ", \"ts\": " + micros(span.startNs - origin) +
            ", \"dur\": " + micros(span.endNs - span.startNs);
    if (span.frame >= 0) {
      json += ", \"args\": {\"frame\": " + std::to_string(span.frame) + "}";
      frames[span.frame].push_back(&span);
    }
    json += "}";
  }
  // Flow arrows: a frame's spans in time order, each arrow bound to the span it points into.
  for (auto& [frame, members] : frames) {
    if (members.size() < 2) {
      continue;
    }
    std::sort(members.begin(), members.end(),
              [](const Span* a, const Span* b) { return a->startNs < b->startNs; });
    for (std::size_t i = 0; i < members.size(); ++i) {
      const char* phase = i == 0 ? "s" : (i + 1 == members.size() ? "f" : "t");
      json += ",\n{\"ph\": \"" + std::string(phase) +
              "\", \"name\": \"frame\", \"cat\": \"frame\", \"id\": " + std::to_string(frame) +
              ", \"pid\": 1, \"tid\": " + std::to_string(members[i]->track + 1) +
              ", \"ts\": " + micros(members[i]->startNs - origin) +
              (i == 0 ? "" : ", \"bp\": \"e\"") + "}";
    }
  }
  json += "\n],\n\"displayTimeUnit\": \"ms\",\n\"otherData\": {\"spans\": " +
          std::to_string(spans.size()) + ", \"dropped_spans\": " + std::to_string(dropped) + "}}\n";
  return json;
}

}  // namespace cineflow::profile

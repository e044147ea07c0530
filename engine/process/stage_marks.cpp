#include "process/stage_marks.hpp"

#include <stdexcept>
#include <string>

namespace cineflow::process {

void checkEnqueue(const char* processor, std::size_t pixels, std::size_t rawBytes,
                  std::size_t stages, compute::DeviceSpan<const std::byte> raw,
                  compute::DeviceSpan<float> image, StageMarks marks) {
  const std::string name(processor);
  if (pixels == 0) {
    throw std::logic_error(name + ": enqueue() before configure()");
  }
  if (!marks.empty() && marks.size() != stages + 1) {
    throw std::invalid_argument(name + ": got " + std::to_string(marks.size()) +
                                " stage marks, expected " + std::to_string(stages + 1) +
                                " (or none)");
  }
  for (const auto& mark : marks) {
    if (mark == nullptr) {
      throw std::invalid_argument(name + ": a stage mark is null");
    }
  }
  if (image.size() != pixels) {
    throw std::invalid_argument(name + ": image holds " + std::to_string(image.size()) +
                                " floats, expected " + std::to_string(pixels));
  }
  if (raw.size() != rawBytes || raw.data() == nullptr || image.data() == nullptr) {
    throw std::invalid_argument(name + ": raw frame holds " + std::to_string(raw.size()) +
                                " bytes, expected " + std::to_string(rawBytes) +
                                " (or a span is null)");
  }
}

void recordMark(compute::Stream& stream, StageMarks marks, std::size_t index) {
  if (!marks.empty()) {
    stream.record(*marks[index]);
  }
}

}  // namespace cineflow::process

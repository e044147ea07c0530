#include "received/received_processor.hpp"

#include "compute/twin.hpp"
#include "process/stage_checks.hpp"
#include "received/cpu/levels.hpp"
#include "received/cuda/received_kernels.hpp"

namespace cineflow::received {
namespace {
constexpr const char* kName = "received-image processor";
}

LevelMap LevelMap::of(const ReceivedLevels& levels) {
  if (levels.asDb) {
    return {1, 0};
  }
  const double scale = kReceivedSpanDb / (levels.white - levels.black);
  return {static_cast<float>(scale), static_cast<float>(-scale * levels.white)};
}

void ReceivedProcessor::configure(compute::Backend& backend, const acquire::FrameSource& source,
                                  const modality::ProcessingSettings& settings) {
  configure(backend, requireReceived(source).format(), requireLevels(settings));
}

void ReceivedProcessor::configure(compute::Backend& backend, const ReceivedFormat& format,
                                  const ReceivedLevels& levels) {
  format.validate();
  levels.validate();
  kind_ = backend.kind();
  format_ = format;
  map_ = LevelMap::of(levels);
}

void ReceivedProcessor::enqueue(compute::Stream& stream, const acquire::FrameHeader& /*frame*/,
                                compute::DeviceSpan<const std::byte> raw,
                                compute::DeviceSpan<float> image, process::StageMarks marks) {
  process::checkEnqueue(kName, format_.pixels(), format_.frameBytes(), stageNames().size(), raw,
                        image, marks);
  process::recordMark(stream, marks, 0);
  compute::onTwin(
      kind_,
      [&] {
        cpu::enqueueLevels(stream, raw.data(), format_.pixel, format_.pixels(), map_, image.data());
      },
      [&] {
        cuda::enqueueLevels(stream, raw.data(), format_.pixel, format_.pixels(), map_,
                            image.data());
      });
  process::recordMark(stream, marks, 1);
}

}  // namespace cineflow::received

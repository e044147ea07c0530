// Fuzzes what a network sender's bytes decide (acquire/stream_message.hpp and the header's
// reading, ultrasound/stream_source.hpp): byte 0 says whether parts follow the first and follow
// the frame's bytes, bytes 1-4 the size of the frame's byte part, the rest is the first part
// (JSON). A header is read as the ultrasound stream it describes (every field checked, bounds
// before allocation), a frame's byte part checked against it. SourceError is the right answer
// to a header Cineflow cannot image; anything else (a throw, a crash, undefined behaviour, a
// leak, an allocation past libFuzzer's limit) is a defect.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "acquire/stream_message.hpp"
#include "ultrasound/stream_source.hpp"

using namespace cineflow;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 5) {
    return 0;
  }
  const bool more = (data[0] & 1) != 0;
  const bool moreAfter = (data[0] & 2) != 0;
  const std::size_t partBytes = std::size_t{data[1]} | std::size_t{data[2]} << 8 |
                                std::size_t{data[3]} << 16 | std::size_t{data[4]} << 24;
  const std::string_view first(reinterpret_cast<const char*>(data) + 5, size - 5);
  const acquire::StreamMessage message = acquire::parseStreamMessage(first, more);
  if (message.kind == acquire::StreamMessage::Kind::Header) {
    try {
      const ultrasound::UltrasoundStream stream =
          ultrasound::ultrasoundStreamFromHeader(message.meta, "fuzzed stream");
      const std::size_t frameBytes =
          stream.params.samplesPerFrame() * acquire::sampleBytes(stream.sampleType);
      (void)acquire::checkFramePart(partBytes, frameBytes, moreAfter);
    } catch (const acquire::SourceError&) {
    }
  } else if (message.kind == acquire::StreamMessage::Kind::Frame) {
    (void)acquire::checkFramePart(partBytes, partBytes, moreAfter);
  }
  return 0;
}

// Fuzzes the checks on a source plugin's stream description (ultrasound/stream_description.hpp,
// the cf_stream a plugin's describe() fills): the input's first bytes are the description's
// numbers as a plugin could set them, the rest its angles and element positions (as many as
// there are; a plugin's arrays hold what it says). SourceError is the right answer to a stream
// Cineflow cannot image; anything else is a defect.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "acquire/frame_source.hpp"
#include "ultrasound/stream_description.hpp"

using namespace cineflow;

namespace {

struct Numbers {
  std::uint32_t sampleType, transmits, elements, samples, framesPerVolume;
  std::uint64_t frameBytes, frameCount;
  double samplingHz, centreHz, soundSpeed, t0, bandwidth, prf, frameRate;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Numbers numbers{};
  if (size < sizeof numbers) {
    return 0;
  }
  std::memcpy(&numbers, data, sizeof numbers);
  std::vector<double> values((size - sizeof numbers) / sizeof(double));
  if (!values.empty()) {
    std::memcpy(values.data(), data + sizeof numbers, values.size() * sizeof(double));
  }
  // The arrays a plugin passes hold transmits and elements values: here as many as the input has.
  const std::size_t transmits = std::min<std::size_t>(numbers.transmits, values.size());
  const std::size_t elements = std::min<std::size_t>(numbers.elements, values.size() - transmits);
  cf_stream stream{};
  stream.modality = (numbers.sampleType & 0x100) != 0 ? "oct" : "ultrasound";
  stream.sample_type = static_cast<std::int32_t>(numbers.sampleType & 0xff);
  stream.transmits = static_cast<std::uint32_t>(transmits);
  stream.elements = static_cast<std::uint32_t>(elements);
  stream.samples = numbers.samples;
  stream.frame_bytes = numbers.frameBytes;
  stream.frame_count = numbers.frameCount;
  stream.sampling_frequency_hz = numbers.samplingHz;
  stream.center_frequency_hz = numbers.centreHz;
  stream.sound_speed_m_s = numbers.soundSpeed;
  stream.t0_s = numbers.t0;
  stream.fractional_bandwidth = numbers.bandwidth;
  stream.pulse_repetition_frequency_hz = numbers.prf;
  stream.frame_rate_hz = numbers.frameRate;
  stream.frames_per_volume = numbers.framesPerVolume;
  stream.angles_rad = values.data();
  stream.element_x_m = values.data() + transmits;
  stream.description = "fuzzed";
  try {
    (void)ultrasound::checkUltrasoundStream(stream, "source plugin 'fuzzed'");
  } catch (const acquire::SourceError&) {
  }
  return 0;
}

#include "ultrasound/stream_description.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "acquire/frame_source.hpp"
#include "acquire/input_bounds.hpp"

namespace cineflow::ultrasound {

UltrasoundStream checkUltrasoundStream(const cf_stream& stream, const std::string& who) {
  const std::string modality = stream.modality != nullptr ? stream.modality : "";
  if (modality != "ultrasound") {
    throw acquire::SourceError(who + " describes a '" + modality +
                               "' stream; outside sources feed ultrasound channel data here");
  }
  if (stream.sample_type != CF_SAMPLES_INT16 && stream.sample_type != CF_SAMPLES_FLOAT32) {
    throw acquire::SourceError(who + ": sample_type " + std::to_string(stream.sample_type) +
                               " (expected int16 or float32)");
  }
  if (stream.transmits == 0 || stream.elements == 0 || stream.samples < 2 ||
      stream.angles_rad == nullptr || stream.element_x_m == nullptr) {
    throw acquire::SourceError(who +
                               ": the stream needs transmits, elements, at least 2 samples, "
                               "angles_rad and element_x_m");
  }
  UltrasoundStream out;
  out.sampleType = stream.sample_type == CF_SAMPLES_INT16 ? acquire::SampleType::Int16
                                                          : acquire::SampleType::Float32;
  // Bounds before allocation: the frame buffers are sized from these counts.
  acquire::checkFrameBytes(acquire::checkedProduct({stream.transmits, stream.elements,
                                                    stream.samples, sampleBytes(out.sampleType)}),
                           who, "transmits x elements x samples");
  if (stream.frames_per_volume > 1000000) {
    throw acquire::SourceError(who + ": frames_per_volume " +
                               std::to_string(stream.frames_per_volume) +
                               " (expected 0 to 1000000)");
  }
  acquire::AcquisitionParams& params = out.params;
  params.samplingFrequencyHz = stream.sampling_frequency_hz;
  params.centerFrequencyHz = stream.center_frequency_hz;
  params.soundSpeedMPerS = stream.sound_speed_m_s;
  params.t0S = stream.t0_s;
  params.anglesRad.assign(stream.angles_rad, stream.angles_rad + stream.transmits);
  params.elementXM.assign(stream.element_x_m, stream.element_x_m + stream.elements);
  params.samples = static_cast<int>(stream.samples);
  params.fractionalBandwidth = stream.fractional_bandwidth;
  params.pulseRepetitionFrequencyHz = stream.pulse_repetition_frequency_hz;
  params.framesPerVolume = static_cast<int>(stream.frames_per_volume);
  try {
    params.validate();
  } catch (const std::invalid_argument& e) {
    throw acquire::SourceError(who + ": its stream cannot be imaged: " + e.what());
  }
  const std::size_t frameBytes = params.samplesPerFrame() * sampleBytes(out.sampleType);
  if (stream.frame_bytes != frameBytes) {
    throw acquire::SourceError(who + ": frame_bytes " + std::to_string(stream.frame_bytes) +
                               ", but " + std::to_string(stream.transmits) + " x " +
                               std::to_string(stream.elements) + " x " +
                               std::to_string(stream.samples) + " samples of " +
                               toString(out.sampleType) + " are " + std::to_string(frameBytes));
  }
  if (!std::isfinite(stream.frame_rate_hz) || stream.frame_rate_hz < 0) {
    throw acquire::SourceError(who + ": frame_rate_hz must be >= 0");
  }
  out.frameRateHz = stream.frame_rate_hz;
  out.frameCount =
      stream.frame_count > 0 ? stream.frame_count : std::numeric_limits<std::uint64_t>::max();
  out.description = stream.description != nullptr ? stream.description : "";
  return out;
}

}  // namespace cineflow::ultrasound

#include "ultrasound/stream_source.hpp"

#include <algorithm>
#include <limits>
#include <type_traits>
#include <vector>

#include "acquire/input_bounds.hpp"
#include "ultrasound/echo_band.hpp"

namespace cineflow::ultrasound {
namespace {

// The header's field `name` as T; `fallback` when absent. A present field of the wrong kind is
// refused by name.
template <typename T>
T field(const nlohmann::json& header, const char* name, T fallback, const std::string& who) {
  const auto it = header.find(name);
  if (it == header.end() || it->is_null()) {
    return fallback;
  }
  const bool fits = std::is_same_v<T, std::string>
                        ? it->is_string()
                        : (std::is_integral_v<T> ? it->is_number_unsigned() : it->is_number());
  if (!fits) {
    throw acquire::SourceError(
        who + ": the header's \"" + name + "\" is " + it->dump() + ", expected " +
        (std::is_same_v<T, std::string>
             ? "text"
             : (std::is_integral_v<T> ? "a non-negative integer" : "a number")));
  }
  if constexpr (std::is_integral_v<T>) {
    if (it->get<std::uint64_t>() > std::numeric_limits<T>::max()) {
      throw acquire::SourceError(who + ": the header's \"" + name + "\" is " + it->dump() +
                                 ", more than " + std::to_string(std::numeric_limits<T>::max()));
    }
  }
  return it->get<T>();
}

std::vector<double> numbers(const nlohmann::json& header, const char* name,
                            const std::string& who) {
  const auto it = header.find(name);
  if (it == header.end() || !it->is_array() ||
      !std::all_of(it->begin(), it->end(), [](const nlohmann::json& v) { return v.is_number(); })) {
    throw acquire::SourceError(who + ": the header needs \"" + name + "\", an array of numbers");
  }
  return it->get<std::vector<double>>();
}

bool sameImaging(const UltrasoundStream& a, const UltrasoundStream& b) {
  const acquire::AcquisitionParams& p = a.params;
  const acquire::AcquisitionParams& q = b.params;
  return a.sampleType == b.sampleType && p.samples == q.samples && p.anglesRad == q.anglesRad &&
         p.elementXM == q.elementXM && p.samplingFrequencyHz == q.samplingFrequencyHz &&
         p.centerFrequencyHz == q.centerFrequencyHz && p.soundSpeedMPerS == q.soundSpeedMPerS &&
         p.t0S == q.t0S && p.framesPerVolume == q.framesPerVolume &&
         p.pulseRepetitionFrequencyHz == q.pulseRepetitionFrequencyHz;
}

}  // namespace

UltrasoundStream ultrasoundStreamFromHeader(const nlohmann::json& header, const std::string& who) {
  const std::vector<double> angles = numbers(header, "angles_rad", who);
  const std::vector<double> elements = numbers(header, "element_x_m", who);
  const std::string modality = field<std::string>(header, "modality", "", who);
  const std::string sampleType = field<std::string>(header, "sample_type", "", who);
  if (sampleType != "int16" && sampleType != "float32") {
    throw acquire::SourceError(who + ": the header's \"sample_type\" is \"" + sampleType +
                               "\", expected \"int16\" or \"float32\"");
  }
  const std::string description = field<std::string>(header, "description", "", who);
  cf_stream stream{};
  stream.modality = modality.c_str();
  stream.sample_type = sampleType == "int16" ? CF_SAMPLES_INT16 : CF_SAMPLES_FLOAT32;
  // transmits and elements follow from the arrays; a header that states them must agree.
  stream.transmits = field<std::uint32_t>(header, "transmits", angles.size(), who);
  stream.elements = field<std::uint32_t>(header, "elements", elements.size(), who);
  if (stream.transmits != angles.size() || stream.elements != elements.size()) {
    throw acquire::SourceError(
        who + ": the header says " + std::to_string(stream.transmits) + " transmits and " +
        std::to_string(stream.elements) + " elements, but has " + std::to_string(angles.size()) +
        " angles_rad and " + std::to_string(elements.size()) + " element_x_m");
  }
  stream.samples = field<std::uint32_t>(header, "samples", 0, who);
  const std::size_t sampleSize = sampleType == "int16" ? 2 : 4;
  // Saturates: a product past 64 bits is refused by checkUltrasoundStream's bounds.
  const std::size_t impliedBytes =
      acquire::checkedProduct({stream.transmits, stream.elements, stream.samples, sampleSize})
          .value_or(std::numeric_limits<std::size_t>::max());
  stream.frame_bytes = field<std::size_t>(header, "frame_bytes", impliedBytes, who);
  stream.sampling_frequency_hz = field<double>(header, "sampling_frequency_hz", 0, who);
  stream.center_frequency_hz = field<double>(header, "center_frequency_hz", 0, who);
  stream.sound_speed_m_s = field<double>(header, "sound_speed_m_s", 1540, who);
  stream.t0_s = field<double>(header, "t0_s", 0, who);
  stream.angles_rad = angles.data();
  stream.element_x_m = elements.data();
  // A fraction of f0; absent (0: unknown) has the band measured from the first frame's echoes.
  stream.fractional_bandwidth = field<double>(header, "fractional_bandwidth", 0, who);
  if (header.contains("fractional_bandwidth") && !header["fractional_bandwidth"].is_null() &&
      !(stream.fractional_bandwidth > 0 && stream.fractional_bandwidth < 2)) {
    throw acquire::SourceError(
        who + ": the header's \"fractional_bandwidth\" is " +
        acquire::numberText(stream.fractional_bandwidth) +
        ", expected the -6 dB band as a fraction of center_frequency_hz, in (0, 2) "
        "(0.6 for 60 %); leave it out to have it measured from the echoes");
  }
  stream.pulse_repetition_frequency_hz =
      field<double>(header, "pulse_repetition_frequency_hz", 0, who);
  stream.frame_rate_hz = field<double>(header, "frame_rate_hz", 0, who);
  stream.frame_count = 0;  // live: whatever the sender's recording holds, it never ends here
  stream.frames_per_volume = field<std::uint32_t>(header, "frames_per_volume", 0, who);
  stream.description = description.c_str();
  return checkUltrasoundStream(stream, who);
}

NetworkSource::NetworkSource(std::unique_ptr<acquire::StreamFeed> feed,
                             const acquire::ProgressFn& progress)
    : feed_(std::move(feed)), who_("network stream on " + feed_->endpoint()) {
  stream_ = ultrasoundStreamFromHeader(feed_->header(), who_);
  feed_->setNominalRate(stream_.frameRateHz);
  description_ = feed_->endpoint() +
                 (stream_.description.empty() ? std::string() : ": " + stream_.description);
  if (stream_.params.fractionalBandwidth == 0) {
    // As a recording that does not state its band: measured from the first frame's echoes, which
    // the first run then images (the chain is configured from the band before any frame).
    ultrasound::measureBandwidthIfUnknown(
        stream_.params, feed_->waitForFirstFrame(frameBytes(), progress, sameStream()),
        stream_.sampleType);
  }
}

acquire::StreamFeed::SameStream NetworkSource::sameStream() const {
  return [this](const nlohmann::json& header) {
    try {
      return sameImaging(ultrasoundStreamFromHeader(header, who_), stream_);
    } catch (const acquire::SourceError&) {
      return false;
    }
  };
}

void NetworkSource::skipFrame(std::uint64_t /*index*/) {
  feed_->nextFrame(scratch_, sameStream());
}

void NetworkSource::readFrame(std::uint64_t /*index*/, std::span<std::byte> dst,
                              acquire::SliceInfo& slice) {
  const nlohmann::json frame = feed_->nextFrame(dst, sameStream());
  const auto sliceIndex = frame.find("slice_index");
  const auto elevation = frame.find("elevation_m");
  slice.sliceIndex =
      sliceIndex != frame.end() && sliceIndex->is_number_unsigned() ? sliceIndex->get<int>() : 0;
  slice.elevationM =
      elevation != frame.end() && elevation->is_number() ? elevation->get<double>() : 0.0;
}

}  // namespace cineflow::ultrasound

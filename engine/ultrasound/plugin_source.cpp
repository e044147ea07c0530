#include "ultrasound/plugin_source.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace cineflow::acquire {
namespace {

constexpr std::size_t kErrorBytes = 512;

}  // namespace

PluginSource::PluginSource(std::shared_ptr<PluginLibrary> plugin, const std::string& parameters)
    : plugin_(std::move(plugin)) {
  const cf_source_plugin& table = plugin_->table();
  const std::string who = "source plugin '" + plugin_->name() + "'";
  char error[kErrorBytes] = {};
  source_ = table.open(parameters.c_str(), error, sizeof error);
  if (source_ == nullptr) {
    throw SourceError(who + " did not open: " + (error[0] != '\0' ? error : "no reason given"));
  }
  try {
    cf_stream stream{};
    if (table.describe(source_, &stream, error, sizeof error) != 0) {
      throw SourceError(who + " could not describe its stream: " +
                        (error[0] != '\0' ? error : "no reason given"));
    }
    const std::string modality = stream.modality != nullptr ? stream.modality : "";
    if (modality != "ultrasound") {
      throw SourceError(who + " describes a '" + modality +
                        "' stream; plugins feed ultrasound channel data here");
    }
    if (stream.sample_type != CF_SAMPLES_INT16 && stream.sample_type != CF_SAMPLES_FLOAT32) {
      throw SourceError(who + ": sample_type " + std::to_string(stream.sample_type) +
                        " (expected int16 or float32)");
    }
    if (stream.transmits == 0 || stream.elements == 0 || stream.samples < 2 ||
        stream.angles_rad == nullptr || stream.element_x_m == nullptr) {
      throw SourceError(who +
                        ": the stream needs transmits, elements, at least 2 samples, "
                        "angles_rad and element_x_m");
    }
    sampleType_ = stream.sample_type == CF_SAMPLES_INT16 ? SampleType::Int16 : SampleType::Float32;
    params_.samplingFrequencyHz = stream.sampling_frequency_hz;
    params_.centerFrequencyHz = stream.center_frequency_hz;
    params_.soundSpeedMPerS = stream.sound_speed_m_s;
    params_.t0S = stream.t0_s;
    params_.anglesRad.assign(stream.angles_rad, stream.angles_rad + stream.transmits);
    params_.elementXM.assign(stream.element_x_m, stream.element_x_m + stream.elements);
    params_.samples = static_cast<int>(stream.samples);
    params_.fractionalBandwidth = stream.fractional_bandwidth;
    params_.pulseRepetitionFrequencyHz = stream.pulse_repetition_frequency_hz;
    params_.framesPerVolume = static_cast<int>(stream.frames_per_volume);
    try {
      params_.validate();
    } catch (const std::invalid_argument& e) {
      throw SourceError(who + ": its stream cannot be imaged: " + e.what());
    }
    if (stream.frame_bytes != frameBytes()) {
      throw SourceError(who + ": frame_bytes " + std::to_string(stream.frame_bytes) + ", but " +
                        std::to_string(stream.transmits) + " x " + std::to_string(stream.elements) +
                        " x " + std::to_string(stream.samples) + " samples of " +
                        toString(sampleType_) + " are " + std::to_string(frameBytes()));
    }
    if (!std::isfinite(stream.frame_rate_hz) || stream.frame_rate_hz < 0) {
      throw SourceError(who + ": frame_rate_hz must be >= 0");
    }
    frameRateHz_ = stream.frame_rate_hz;
    frameCount_ =
        stream.frame_count > 0 ? stream.frame_count : std::numeric_limits<std::uint64_t>::max();
    description_ = plugin_->name() + (stream.description != nullptr && stream.description[0] != '\0'
                                          ? std::string(": ") + stream.description
                                          : std::string());
  } catch (...) {
    table.close(source_);
    throw;
  }
}

PluginSource::~PluginSource() {
  plugin_->table().close(source_);
}

void PluginSource::readFrame(std::uint64_t index, std::span<std::byte> dst, SliceInfo& slice) {
  if (dst.size() != frameBytes()) {
    throw SourceError("source plugin '" + plugin_->name() + "': destination holds " +
                      std::to_string(dst.size()) + " bytes, a frame needs " +
                      std::to_string(frameBytes()));
  }
  char error[kErrorBytes] = {};
  cf_frame_info info{};
  const std::int64_t written = plugin_->table().read_frame(source_, index, dst.data(), dst.size(),
                                                           &info, error, sizeof error);
  if (written < 0) {
    throw SourceError("source plugin '" + plugin_->name() + "': frame " + std::to_string(index) +
                      ": " + (error[0] != '\0' ? error : "failed without a reason"));
  }
  if (static_cast<std::uint64_t>(written) != dst.size()) {
    throw SourceError("source plugin '" + plugin_->name() + "': frame " + std::to_string(index) +
                      " has " + std::to_string(written) + " bytes, the stream's frames have " +
                      std::to_string(dst.size()));
  }
  lost_ += info.lost;
  slice.sliceIndex = static_cast<int>(info.slice_index);
  slice.elevationM = info.elevation_m;
}

}  // namespace cineflow::acquire

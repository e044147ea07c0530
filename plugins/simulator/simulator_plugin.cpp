// The built-in ultrasound simulator (ultrasound/simulator.hpp) as a source plugin: the plugin
// API carrying real load (a 3-D sweep of 16 slices, 384 traces of int16 per frame by default).
// Parameters: seed, slices per sweep, frame rate, noise.
#include <cstring>
#include <exception>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cineflow/source_plugin.h"
#include "ultrasound/simulator.hpp"

namespace {

using cineflow::ultrasound::Simulator;
using cineflow::ultrasound::SimulatorConfig;

struct Source {
  std::unique_ptr<Simulator> simulator;
  std::vector<double> angles, elements;
  std::string description;
};

void writeError(const std::string& text, char* error, std::size_t size) {
  if (error != nullptr && size > 0) {
    std::strncpy(error, text.c_str(), size - 1);
    error[size - 1] = '\0';
  }
}

cf_source* open(const char* parameters, char* error, std::size_t errorSize) {
  try {
    const nlohmann::json p = nlohmann::json::parse(parameters != nullptr ? parameters : "{}");
    SimulatorConfig config;
    config.seed = p.value("seed", std::uint64_t{1});
    config.slicesPerVolume = p.value("slices", 16);
    config.frameRateHz = p.value("frame_rate_hz", 20.0);
    config.noiseDb = p.value("noise_db", -50.0);
    auto source = std::make_unique<Source>();
    source->simulator = std::make_unique<Simulator>(config);
    source->angles = source->simulator->params().anglesRad;
    source->elements = source->simulator->params().elementXM;
    source->description = source->simulator->describe();
    return reinterpret_cast<cf_source*>(source.release());
  } catch (const std::exception& e) {
    writeError(e.what(), error, errorSize);
    return nullptr;
  }
}

int describe(cf_source* handle, cf_stream* stream, char* error, std::size_t errorSize) {
  try {
    const Source& source = *reinterpret_cast<Source*>(handle);
    const auto& acq = source.simulator->params();
    *stream = cf_stream{};
    stream->modality = "ultrasound";
    stream->sample_type = source.simulator->sampleType() == cineflow::acquire::SampleType::Int16
                              ? CF_SAMPLES_INT16
                              : CF_SAMPLES_FLOAT32;
    stream->transmits = static_cast<std::uint32_t>(acq.transmits());
    stream->elements = static_cast<std::uint32_t>(acq.elements());
    stream->samples = static_cast<std::uint32_t>(acq.samples);
    stream->frame_bytes = source.simulator->frameBytes();
    stream->sampling_frequency_hz = acq.samplingFrequencyHz;
    stream->center_frequency_hz = acq.centerFrequencyHz;
    stream->sound_speed_m_s = acq.soundSpeedMPerS;
    stream->t0_s = acq.t0S;
    stream->angles_rad = source.angles.data();
    stream->element_x_m = source.elements.data();
    stream->fractional_bandwidth = acq.fractionalBandwidth;
    stream->frame_rate_hz = source.simulator->frameRateHz();
    stream->frame_count = source.simulator->frameCount();
    stream->frames_per_volume = static_cast<std::uint32_t>(acq.framesPerVolume);
    stream->description = source.description.c_str();
    return 0;
  } catch (const std::exception& e) {
    writeError(e.what(), error, errorSize);
    return -1;
  }
}

std::int64_t readFrame(cf_source* handle, std::uint64_t index, void* dst, std::size_t bytes,
                       cf_frame_info* info, char* error, std::size_t errorSize) {
  try {
    Source& source = *reinterpret_cast<Source*>(handle);
    cineflow::acquire::SliceInfo slice;
    source.simulator->readFrame(index % source.simulator->frameCount(),
                                std::span(static_cast<std::byte*>(dst), bytes), slice);
    *info = cf_frame_info{static_cast<std::uint32_t>(slice.sliceIndex), slice.elevationM, 0};
    return static_cast<std::int64_t>(bytes);
  } catch (const std::exception& e) {
    writeError(e.what(), error, errorSize);
    return -1;
  }
}

void close(cf_source* handle) {
  delete reinterpret_cast<Source*>(handle);
}

const cf_source_plugin kTable = {
    CF_SOURCE_PLUGIN_ABI,
    "Ultrasound simulator",
    "The built-in 3-D phantom simulator (point targets, cysts, speckle, a vessel), through the "
    "plugin API",
    R"json([
      {"name": "seed", "label": "Seed", "kind": "integer", "default": 1, "min": 0, "max": 1000000},
      {"name": "slices", "label": "Slices per sweep", "kind": "integer", "default": 16,
       "min": 1, "max": 64},
      {"name": "frame_rate_hz", "label": "Frame rate", "kind": "number", "default": 20,
       "min": 1, "max": 1000, "unit": "Hz"},
      {"name": "noise_db", "label": "Noise", "kind": "number", "default": -50, "min": -120,
       "max": 0, "unit": "dB"}])json",
    open,
    describe,
    nullptr,  // start: the simulator computes each frame when asked
    readFrame,
    nullptr,  // stop: nothing waits
    close,
};

}  // namespace

extern "C" __attribute__((visibility("default"))) const cf_source_plugin* cineflow_source_plugin() {
  return &kTable;
}

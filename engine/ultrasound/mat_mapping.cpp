// MatMapping's text form and presets, and the in-memory recording a MATLAB import gives
// (acquire/mat_import.hpp); the import itself is in mat_import.cpp.
#include <cstring>
#include <sstream>
#include <stdexcept>

#include "ultrasound/echo_band.hpp"
#include "ultrasound/mat_import.hpp"

namespace cineflow::ultrasound {
namespace {

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) {
    return {};
  }
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

// The parts between separators, each without surrounding white space.
std::vector<std::string> splitAt(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::istringstream stream(text);
  for (std::string part; std::getline(stream, part, separator);) {
    parts.push_back(trimmed(part));
  }
  return parts;
}

}  // namespace

MatMapping MatMapping::verasonics() {
  return {};
}

MatMapping MatMapping::parse(const std::string& text, const MatMapping& base) {
  MatMapping mapping = base;
  for (const std::string& item : splitAt(text, ';')) {
    if (item.empty()) {
      continue;
    }
    const auto equals = item.find('=');
    if (equals == std::string::npos) {
      throw std::invalid_argument("mapping item '" + item + "': expected key=value");
    }
    const std::string key = trimmed(item.substr(0, equals));
    const std::string value = trimmed(item.substr(equals + 1));
    if (key == "rf") {
      mapping.rf = value;
    } else if (key == "order") {
      mapping.order = splitAt(value, ',');
    } else if (key == "fs") {
      mapping.samplingFrequency = value;
    } else if (key == "f0") {
      mapping.centerFrequency = value;
    } else if (key == "c") {
      mapping.soundSpeed = value;
    } else if (key == "t0") {
      mapping.t0 = value;
    } else if (key == "pitch") {
      mapping.pitch = value;
    } else if (key == "angles") {
      mapping.angles = value;
    } else if (key == "bandwidth") {
      mapping.bandwidthPercent = value;
    } else if (key == "elements") {
      mapping.elements = value;
    } else if (key == "prf") {
      mapping.prf = value;
    } else {
      throw std::invalid_argument("mapping key '" + key +
                                  "': expected rf, order, fs, f0, c, t0, pitch, angles, "
                                  "bandwidth, elements or prf");
    }
    if (value.empty() && key != "bandwidth" && key != "elements" && key != "prf") {
      throw std::invalid_argument("mapping key '" + key + "' needs a value");
    }
  }
  return mapping;
}

std::string MatMapping::toString() const {
  std::string orderText;
  for (const std::string& name : order) {
    if (!orderText.empty()) {
      orderText += ',';
    }
    orderText += name;
  }
  return "rf=" + rf + ";order=" + orderText + ";fs=" + samplingFrequency +
         ";f0=" + centerFrequency + ";c=" + soundSpeed + ";t0=" + t0 + ";pitch=" + pitch +
         ";angles=" + angles + ";bandwidth=" + bandwidthPercent + ";elements=" + elements +
         ";prf=" + prf;
}

std::span<const std::byte> ImportedRecording::frameBytes(std::uint64_t frame) const {
  const std::size_t values = acq.samplesPerFrame();
  if (sampleType == acquire::SampleType::Int16) {
    return std::as_bytes(std::span(int16Samples).subspan(frame * values, values));
  }
  return std::as_bytes(std::span(float32Samples).subspan(frame * values, values));
}

MatSource::MatSource(ImportedRecording recording, std::string name, double frameRateHz)
    : recording_(std::move(recording)), name_(std::move(name)), frameRateHz_(frameRateHz) {
  if (recording_.frames == 0) {
    throw acquire::SourceError(name_ + ": the recording holds no frames");
  }
  // A mapping without a bandwidth: measure it from the first frame's echoes.
  ultrasound::measureBandwidthIfUnknown(recording_.acq, recording_.frameBytes(0),
                                        recording_.sampleType);
}

void MatSource::readFrame(std::uint64_t index, std::span<std::byte> dst,
                          acquire::SliceInfo& slice) {
  const std::span<const std::byte> frame = recording_.frameBytes(index % recording_.frames);
  if (dst.size() != frame.size()) {
    throw acquire::SourceError(name_ + ": frame buffer holds " + std::to_string(dst.size()) +
                               " bytes, expected " + std::to_string(frame.size()));
  }
  std::memcpy(dst.data(), frame.data(), frame.size());
  slice = {};
}

std::string MatSource::describe() const {
  return name_ + " (" + acquire::framesText(recording_.frames) + ", MATLAB import)";
}

}  // namespace cineflow::ultrasound

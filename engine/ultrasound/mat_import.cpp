#include "ultrasound/mat_import.hpp"

#include "ultrasound/mat_reader.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <span>
#include <stdexcept>
#include <type_traits>

namespace cineflow::ultrasound {
namespace {

// The dimension sizes of RF named by `order`, and their MATLAB strides.
struct RfLayout {
  std::size_t samples = 1, elements = 1, transmits = 1, frames = 1;
  std::size_t sampleStride = 0, elementStride = 0, transmitStride = 0, frameStride = 0;
};

RfLayout layoutOf(const matvar_t& rf, const MatMapping& mapping, const MatReader& reader) {
  const auto& order = mapping.order;
  for (const std::string& name : order) {
    if (name != "samples" && name != "elements" && name != "transmits" && name != "frames") {
      reader.fail("the mapping's order names '" + name +
                  "': expected samples, elements, transmits or frames");
    }
    if (std::count(order.begin(), order.end(), name) != 1) {
      reader.fail("the mapping's order names '" + name + "' more than once");
    }
  }
  for (const char* required : {"samples", "elements"}) {
    if (std::count(order.begin(), order.end(), required) != 1) {
      reader.fail("the mapping's order must name '" + std::string(required) + "'");
    }
  }
  if (static_cast<std::size_t>(rf.rank) > order.size()) {
    reader.fail(mapping.rf + " is " + describe(rf) + ": the mapping's order names only " +
                std::to_string(order.size()) + " dimensions");
  }
  RfLayout layout;
  std::size_t stride = 1;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::size_t size = i < static_cast<std::size_t>(rf.rank) ? rf.dims[i] : 1;
    std::size_t* count = nullptr;
    std::size_t* strideOut = nullptr;
    if (order[i] == "samples") {
      count = &layout.samples, strideOut = &layout.sampleStride;
    } else if (order[i] == "elements") {
      count = &layout.elements, strideOut = &layout.elementStride;
    } else if (order[i] == "transmits") {
      count = &layout.transmits, strideOut = &layout.transmitStride;
    } else if (order[i] == "frames") {
      count = &layout.frames, strideOut = &layout.frameStride;
    } else {
      reader.fail("the mapping's order names '" + order[i] +
                  "': expected samples, elements, transmits or frames");
    }
    *count = size;
    *strideOut = stride;
    stride *= size;
  }
  return layout;
}

struct PlaneWaves {
  std::vector<double> anglesRad;
  std::vector<double> centreCrossingS;  // when each wave crosses x = 0 after the delays' origin
};

// sin(angle) = c * slope of the delays over the element positions, per transmit (row); the fitted
// delay at x = 0 is when that wave crosses the array centre.
PlaneWaves planeWavesFromDelays(const matvar_t& var, const std::vector<double>& delays,
                                const std::string& spec, const acquire::AcquisitionParams& acq,
                                const MatReader& reader) {
  const std::size_t elements = acq.elementXM.size();
  const std::size_t rows = var.rank >= 1 ? var.dims[0] : 1;
  if (var.rank != 2 || var.dims[1] != elements || rows == 0) {
    reader.fail(spec + " (transmit delays): expected a [transmits x " + std::to_string(elements) +
                "] matrix, found " + describe(var));
  }
  if (!std::all_of(delays.begin(), delays.end(), [](double d) { return std::isfinite(d); })) {
    reader.fail(spec + " (transmit delays): holds NaN or infinite delays");
  }
  const double meanX = std::accumulate(acq.elementXM.begin(), acq.elementXM.end(), 0.0) /
                       static_cast<double>(elements);
  PlaneWaves waves;
  for (std::size_t t = 0; t < rows; ++t) {
    // MATLAB is column-major: row t, column e is element t + e * rows.
    double meanDelay = 0;
    for (std::size_t e = 0; e < elements; ++e) {
      meanDelay += delays[t + e * rows] / static_cast<double>(elements);
    }
    double sxy = 0, sxx = 0;
    for (std::size_t e = 0; e < elements; ++e) {
      const double dx = acq.elementXM[e] - meanX;
      sxy += dx * (delays[t + e * rows] - meanDelay);
      sxx += dx * dx;
    }
    const double slope = sxx > 0 ? sxy / sxx : 0;
    double worst = 0;
    for (std::size_t e = 0; e < elements; ++e) {
      const double fitted = meanDelay + slope * (acq.elementXM[e] - meanX);
      worst = std::max(worst, std::abs(delays[t + e * rows] - fitted));
    }
    // A plane wave's delays lie on a line; a residual of a tenth of a sample means focusing.
    if (worst > 0.1 / acq.samplingFrequencyHz) {
      reader.fail(spec + " (transmit delays): row " + std::to_string(t + 1) +
                  " is not a plane wave (delays differ from a line by up to " +
                  std::to_string(worst * 1e9) + " ns)");
    }
    const double sine = slope * acq.soundSpeedMPerS;
    if (std::abs(sine) >= 1) {
      reader.fail(spec + " (transmit delays): row " + std::to_string(t + 1) +
                  " implies a steering beyond 90 degrees");
    }
    waves.anglesRad.push_back(std::asin(sine));
    waves.centreCrossingS.push_back(meanDelay - slope * meanX);
  }
  return waves;
}

// The RF must be a non-empty real numeric array; said before anything is derived from its shape.
void checkRfVariable(const matvar_t& rf, const MatMapping& mapping, const MatReader& reader) {
  if (!withNumbers(rf, [](const auto*) {})) {
    reader.fail(mapping.rf + " (RF) is " + describe(rf) +
                ": expected a real numeric array of channel data");
  }
  if (elementCount(rf) == 0) {
    reader.fail(mapping.rf + " (RF) is " + describe(rf) + ": it holds no samples");
  }
}

// A parameter that must be a positive, finite number.
double positiveScalar(MatReader& reader, const std::string& spec, const std::string& role,
                      const char* unit) {
  const double value = reader.scalar(spec, role);
  if (!(value > 0) || !std::isfinite(value)) {
    reader.fail(spec + " (" + role + "): expected a positive number of " + unit + ", found " +
                acquire::numberText(value));
  }
  return value;
}

}  // namespace

ImportedRecording importMat(const std::filesystem::path& path, const MatMapping& mapping,
                            const acquire::ProgressFn& progress) {
  const auto report = [&](double fraction, const std::string& what) {
    if (progress) {
      progress(fraction, what);
    }
  };
  report(0, "reading " + path.filename().string());
  MatReader reader(path);
  const matvar_t& rf = reader.lookup(mapping.rf, "RF");
  checkRfVariable(rf, mapping, reader);
  const RfLayout layout = layoutOf(rf, mapping, reader);
  if (layout.samples < 2 || layout.samples > kMaxImportSamples ||
      layout.elements > kMaxImportElements || layout.transmits > kMaxImportTransmits) {
    reader.fail(mapping.rf + " (RF) is " + describe(rf) + ": expected 2 to " +
                std::to_string(kMaxImportSamples) + " samples, at most " +
                std::to_string(kMaxImportElements) + " elements and at most " +
                std::to_string(kMaxImportTransmits) + " transmits (check the mapping's order)");
  }

  ImportedRecording out;
  acquire::AcquisitionParams& acq = out.acq;
  acq.samplingFrequencyHz =
      positiveScalar(reader, mapping.samplingFrequency, "sampling frequency", "hertz");
  acq.centerFrequencyHz =
      positiveScalar(reader, mapping.centerFrequency, "centre frequency", "hertz");
  acq.soundSpeedMPerS = positiveScalar(reader, mapping.soundSpeed, "sound speed", "m/s");
  acq.t0S = reader.scalar(mapping.t0, "t0");
  if (!std::isfinite(acq.t0S)) {
    reader.fail(mapping.t0 + " (t0): expected a finite number of seconds, found " +
                acquire::numberText(acq.t0S));
  }
  acq.samples = static_cast<int>(layout.samples);
  // The optional parameters: a mapped variable that the file lacks counts as not given.
  std::string notes;
  if (!mapping.bandwidthPercent.empty() && !reader.has(mapping.bandwidthPercent)) {
    notes += "; " + mapping.bandwidthPercent + " absent or unreadable: bandwidth unknown";
  } else if (!mapping.bandwidthPercent.empty()) {
    // 0 is how some exports say "unknown".
    const double percent = reader.scalar(mapping.bandwidthPercent, "bandwidth");
    if (!(percent >= 0 && percent <= 200)) {
      reader.fail(mapping.bandwidthPercent + " (bandwidth): expected a percentage of f0 in [0, " +
                  "200], found " + acquire::numberText(percent));
    }
    acq.fractionalBandwidth = percent / 100;
  }
  if (!mapping.prf.empty() && !reader.has(mapping.prf)) {
    notes += "; " + mapping.prf + " absent or unreadable: pulse repetition frequency unknown";
  } else if (!mapping.prf.empty()) {
    const double prf = reader.scalar(mapping.prf, "pulse repetition frequency");
    if (!(std::isfinite(prf) && prf >= 0)) {
      reader.fail(mapping.prf + " (pulse repetition frequency): expected hertz >= 0, found " +
                  acquire::numberText(prf));
    }
    acq.pulseRepetitionFrequencyHz = prf;  // 0: unknown
  }
  if (!mapping.elements.empty() && !reader.has(mapping.elements)) {
    notes += "; " + mapping.elements + " absent or unreadable: element count not checked";
  } else if (!mapping.elements.empty()) {
    const double declared = reader.scalar(mapping.elements, "element count");
    if (declared != static_cast<double>(layout.elements)) {
      reader.fail("the element count " + acquire::numberText(declared) + " (" + mapping.elements +
                  ") does not match the elements dimension of " + mapping.rf + " (" + describe(rf) +
                  "): " + std::to_string(layout.elements));
    }
  }
  const double pitch = positiveScalar(reader, mapping.pitch, "pitch", "metres");
  for (std::size_t e = 0; e < layout.elements; ++e) {
    acq.elementXM.push_back((static_cast<double>(e) - (layout.elements - 1) / 2.0) * pitch);
  }
  if (const auto literal = parseMatNumber(mapping.angles)) {
    acq.anglesRad.assign(layout.transmits, *literal);
  } else if (mapping.angles.rfind("delays:", 0) == 0) {
    const std::string spec = mapping.angles.substr(7);
    const PlaneWaves waves =
        planeWavesFromDelays(reader.lookup(spec, "transmit delays"),
                             reader.numbers(spec, "transmit delays"), spec, acq, reader);
    acq.anglesRad = waves.anglesRad;
    // Time 0 is when a wave crosses the array centre (docs/ultrasound.md), the delays' origin is
    // the first firing: t0 moves by the crossing time, which one t0 can do only if every wave has
    // the same (e.g. symmetric angles about 0 do not).
    const auto [earliest, latest] =
        std::minmax_element(waves.centreCrossingS.begin(), waves.centreCrossingS.end());
    if (*latest - *earliest > 0.1 / acq.samplingFrequencyHz) {
      reader.fail(spec + " (transmit delays): the plane waves cross the array centre at times " +
                  "up to " + std::to_string((*latest - *earliest) * 1e9) +
                  " ns apart; one t0 cannot describe them (shift each transmit's samples to a "
                  "common centre crossing first)");
    }
    acq.t0S -= *earliest;
  } else {
    acq.anglesRad = reader.numbers(mapping.angles, "transmit angles");
  }
  if (acq.anglesRad.size() != layout.transmits) {
    reader.fail(mapping.angles + " (transmit angles): " + std::to_string(acq.anglesRad.size()) +
                " angle(s), but the transmits dimension of " + mapping.rf + " has " +
                std::to_string(layout.transmits));
  }
  try {
    acq.validate();
  } catch (const std::invalid_argument& e) {
    reader.fail(std::string("the mapped acquisition is inconsistent: ") + e.what());
  }

  // The samples, reordered to [frames][transmits][elements][samples]: int16 when every value is
  // an integer in range (exactly what was recorded), float32 otherwise.
  out.frames = layout.frames;
  report(0.5, "checking the samples of " + mapping.rf);
  // Two passes over matio's copy (no third copy of a large recording): is every sample an
  // integer in the int16 range (and finite and within float32's range), then the reordering.
  const std::size_t total = elementCount(rf);
  bool integral = true;
  std::size_t unrepresentable = 0;  // NaN, infinite or beyond float32
  withNumbers(rf, [&](const auto* data) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(data)>>;
    if constexpr (std::is_floating_point_v<T>) {
      constexpr double kFloatMax = std::numeric_limits<float>::max();
      for (std::size_t i = 0; i < total; ++i) {
        const auto v = static_cast<double>(data[i]);
        unrepresentable += !(std::abs(v) <= kFloatMax);
        integral = integral && v == std::trunc(v) && v >= -32768 && v <= 32767;
      }
    } else if constexpr (!std::is_same_v<T, std::int16_t>) {
      for (std::size_t i = 0; i < total && integral; ++i) {
        const auto v = static_cast<double>(data[i]);
        integral = v >= -32768 && v <= 32767;
      }
    }
  });
  if (unrepresentable > 0) {
    reader.fail(mapping.rf + " (RF) holds " + std::to_string(unrepresentable) + " of " +
                std::to_string(total) +
                " samples that are NaN, infinite or beyond single precision: expected finite "
                "channel data");
  }
  out.sampleType = integral ? acquire::SampleType::Int16 : acquire::SampleType::Float32;
  out.note = std::string(mapping.rf) + " is " + describe(rf) +
             (integral ? ": integer samples, kept as int16" : ": stored as float32") + notes;
  withNumbers(rf, [&](const auto* data) {
    const auto reorder = [&](auto& target) {
      using Out = typename std::remove_reference_t<decltype(target)>::value_type;
      target.resize(total);
      std::size_t next = 0;
      for (std::size_t f = 0; f < layout.frames; ++f) {
        // At most one report per percent: each one is an event for the GUI.
        if (f == 0 || f * 100 / layout.frames != (f - 1) * 100 / layout.frames) {
          report(0.5 + 0.5 * static_cast<double>(f) / static_cast<double>(layout.frames),
                 "reordering the frames of " + mapping.rf);
        }
        for (std::size_t t = 0; t < layout.transmits; ++t) {
          for (std::size_t e = 0; e < layout.elements; ++e) {
            const std::size_t base =
                f * layout.frameStride + t * layout.transmitStride + e * layout.elementStride;
            for (std::size_t sample = 0; sample < layout.samples; ++sample, ++next) {
              target[next] = static_cast<Out>(data[base + sample * layout.sampleStride]);
            }
          }
        }
      }
    };
    if (integral) {
      reorder(out.int16Samples);
    } else {
      reorder(out.float32Samples);
    }
  });
  report(1, mapping.rf + " imported: " + acquire::framesText(layout.frames));
  return out;
}

}  // namespace cineflow::ultrasound

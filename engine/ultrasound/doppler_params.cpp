#include "ultrasound/doppler_params.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "acquire/frame_source.hpp"
#include "base/enum_names.hpp"
#include "ultrasound/doppler_math.hpp"

namespace cineflow::ultrasound {
namespace {

[[noreturn]] void fail(const std::string& message) {
  throw std::invalid_argument("Doppler parameters: " + message);
}

}  // namespace

namespace {

constexpr base::Named<EnsembleMode> kEnsembleModes[] = {{EnsembleMode::Sliding, "sliding"},
                                                        {EnsembleMode::Block, "block"}};
constexpr base::Named<WallFilter> kWallFilters[] = {{WallFilter::None, "none"},
                                                    {WallFilter::Regression, "regression"},
                                                    {WallFilter::Iir, "iir"},
                                                    {WallFilter::Svd, "svd"}};

}  // namespace

const char* toString(EnsembleMode mode) noexcept {
  return base::nameIn(kEnsembleModes, mode, "sliding");
}

EnsembleMode parseEnsembleMode(const std::string& text) {
  return base::parseIn(kEnsembleModes, text, "ensemble mode");
}

const char* toString(WallFilter filter) noexcept {
  return base::nameIn(kWallFilters, filter, "none");
}

WallFilter parseWallFilter(const std::string& text) {
  return base::parseIn(kWallFilters, text, "wall filter");
}

namespace {

double numberIn(const std::string& text, const std::string& what) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (text.empty() || used != text.size() || !std::isfinite(value)) {
    throw std::invalid_argument(what + ": '" + text + "' is not a number");
  }
  return value;
}

int wholeNumberIn(const std::string& text, const std::string& what) {
  const double value = numberIn(text, what);
  if (value != std::floor(value) || std::abs(value) > 1e6) {
    throw std::invalid_argument(what + ": '" + text + "' is not a whole number");
  }
  return static_cast<int>(value);
}

}  // namespace

process::ColourBox parseColourBoxMillimetres(const std::string& text) {
  const std::string what = "colour box '" + text + "' (expected x0:x1,z0:z1 in mm)";
  const auto comma = text.find(',');
  const auto firstColon = text.find(':');
  const auto secondColon = comma == std::string::npos ? comma : text.find(':', comma);
  if (comma == std::string::npos || firstColon > comma || secondColon == std::string::npos) {
    throw std::invalid_argument(what);
  }
  process::ColourBox box;
  box.x0 = numberIn(text.substr(0, firstColon), what) * 1e-3;
  box.x1 = numberIn(text.substr(firstColon + 1, comma - firstColon - 1), what) * 1e-3;
  box.z0 = numberIn(text.substr(comma + 1, secondColon - comma - 1), what) * 1e-3;
  box.z1 = numberIn(text.substr(secondColon + 1), what) * 1e-3;
  if (box.empty()) {
    throw std::invalid_argument(what + ": needs x0 < x1 and z0 < z1");
  }
  return box;
}

void DopplerParams::applyWallFilterSpec(const std::string& spec) {
  const auto colon = spec.find(':');
  const std::string name = spec.substr(0, colon);
  const WallFilter filter = parseWallFilter(name);
  const std::string what = "wall filter '" + spec + "'";
  if (colon != std::string::npos) {
    const std::string value = spec.substr(colon + 1);
    switch (filter) {
      case WallFilter::None:
        throw std::invalid_argument(what + ": none takes no parameter");
      case WallFilter::Regression:
        regressionOrder = wholeNumberIn(value, what);
        break;
      case WallFilter::Iir:
        iirCutoff = numberIn(value, what);
        break;
      case WallFilter::Svd:
        svdRank = wholeNumberIn(value, what);
        break;
    }
  }
  wallFilter = filter;
}

void DopplerParams::applyAveragingSpec(const std::string& spec) {
  const std::string what = "averaging window '" + spec + "' (expected WxZ in pixels, e.g. 3x3)";
  const auto x = spec.find('x');
  if (x == std::string::npos) {
    throw std::invalid_argument(what);
  }
  averageX = wholeNumberIn(spec.substr(0, x), what);
  averageZ = wholeNumberIn(spec.substr(x + 1), what);
}

std::string DopplerParams::wallFilterSpec() const {
  const std::string name = toString(wallFilter);
  switch (wallFilter) {
    case WallFilter::None:
      return name;
    case WallFilter::Regression:
      return name + ":" + std::to_string(regressionOrder);
    case WallFilter::Iir: {
      char cutoff[32];  // the shortest text that reads back as the same number
      const auto written = std::to_chars(cutoff, cutoff + sizeof cutoff, iirCutoff);
      return name + ":" + std::string(cutoff, written.ptr);
    }
    case WallFilter::Svd:
      return name + ":" + std::to_string(svdRank);
  }
  return name;
}

std::string DopplerParams::averagingSpec() const {
  return std::to_string(averageX) + "x" + std::to_string(averageZ);
}

double DopplerParams::prfFor(const acquire::AcquisitionParams& acq) const {
  return prfHz > 0 ? prfHz : acq.pulseRepetitionFrequencyHz;
}

double DopplerParams::aliasingVelocityFor(const acquire::AcquisitionParams& acq) const {
  return nyquistVelocity(acq.soundSpeedMPerS, prfFor(acq), acq.centerFrequencyHz);
}

std::string DopplerParams::unavailableFor(const acquire::AcquisitionParams& acq) const {
  if (acq.framesPerVolume > 0) {
    return "the frames are slices of a volume sweep (" + std::to_string(acq.framesPerVolume) +
           " per volume), not repeated views of one plane: Doppler needs a 2-D acquisition";
  }
  if (!(prfFor(acq) > 0)) {
    return "the pulse repetition frequency is unknown: the recording has no "
           "pulse_repetition_frequency_hz; give one (--prf HZ)";
  }
  return {};
}

void DopplerParams::validate(const acquire::AcquisitionParams& acq,
                             const process::ImageGeometry& geometry) const {
  if (ensemble < kMinEnsemble || ensemble > kMaxEnsemble) {
    fail("ensemble " + std::to_string(ensemble) + " frames is outside [" +
         std::to_string(kMinEnsemble) + ", " + std::to_string(kMaxEnsemble) + "]");
  }
  if (!std::isfinite(prfHz) || prfHz < 0) {
    fail("PRF " + acquire::numberText(prfHz) + " Hz must be >= 0 (0: the acquisition's)");
  }
  if (const std::string why = unavailableFor(acq); !why.empty()) {
    fail(why);
  }
  switch (wallFilter) {
    case WallFilter::None:
      break;
    case WallFilter::Regression:
      if (regressionOrder < 0 || regressionOrder > kMaxRegressionOrder) {
        fail("regression order " + std::to_string(regressionOrder) + " is outside [0, " +
             std::to_string(kMaxRegressionOrder) + "]");
      }
      if (ensemble <= regressionOrder + 2) {
        fail("an ensemble of " + std::to_string(ensemble) +
             " frames leaves too little after a regression of order " +
             std::to_string(regressionOrder) + " (at least order + 3 frames)");
      }
      break;
    case WallFilter::Iir:
      if (!(iirCutoff > 0 && iirCutoff < 0.5)) {
        fail("IIR cut-off " + acquire::numberText(iirCutoff) + " x PRF is outside (0, 0.5)");
      }
      if (ensemble < kIirStates + 3) {
        fail("an ensemble of " + std::to_string(ensemble) +
             " frames is too short for the IIR filter (at least " + std::to_string(kIirStates + 3) +
             ")");
      }
      break;
    case WallFilter::Svd:
      if (svdRank < 1 || svdRank > ensemble - 2) {
        fail("SVD rank " + std::to_string(svdRank) +
             " is outside [1, ensemble - 2 = " + std::to_string(ensemble - 2) + "]");
      }
      break;
  }
  for (const auto& [value, name] : {std::pair{averageX, "averageX"}, {averageZ, "averageZ"}}) {
    if (value < 1 || value > kMaxAveraging || value % 2 == 0) {
      fail(std::string(name) + " " + std::to_string(value) + " must be odd and in [1, " +
           std::to_string(kMaxAveraging) + "]");
    }
  }
  const double edges[] = {box.x0, box.x1, box.z0, box.z1};
  if (!std::all_of(std::begin(edges), std::end(edges), [](double v) { return std::isfinite(v); })) {
    fail("the colour box has a non-finite edge");
  }
  if (!box.empty() && pixelBox(box, geometry).empty()) {
    char text[160];
    std::snprintf(text, sizeof text,
                  "the colour box x %.1f..%.1f mm, z %.1f..%.1f mm holds no pixel of the image",
                  box.x0 * 1e3, box.x1 * 1e3, box.z0 * 1e3, box.z1 * 1e3);
    fail(text);
  }
}

}  // namespace cineflow::ultrasound

#include "oct/oct_acquisition.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace cineflow::oct {
namespace {

[[noreturn]] void refuse(const std::string& what) {
  throw std::invalid_argument("OCT acquisition: " + what);
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

}  // namespace

double OctAcquisition::kMin() const {
  const double longest = std::max(wavelengthM.front(), wavelengthM.back());
  return 2.0 * std::numbers::pi / longest;
}

double OctAcquisition::kMax() const {
  const double shortest = std::min(wavelengthM.front(), wavelengthM.back());
  return 2.0 * std::numbers::pi / shortest;
}

double OctAcquisition::axialPixelInAirM() const {
  const double dk = (kMax() - kMin()) / (samples - 1);
  return std::numbers::pi / (samples * dk);
}

void OctAcquisition::validate() const {
  if (samples < 16 || samples > 65536) {
    refuse("samples per A-scan " + std::to_string(samples) + " outside [16, 65536]");
  }
  if (ascans < 1) {
    refuse("A-scans per B-scan " + std::to_string(ascans) + " must be >= 1");
  }
  if (bitDepth < 8 || bitDepth > 16) {
    refuse("bit depth " + std::to_string(bitDepth) + " outside [8, 16]");
  }
  if (flybackAscans < 0 || flybackAscans >= ascans) {
    refuse("flyback A-scans " + std::to_string(flybackAscans) + " must be in [0, " +
           std::to_string(ascans - 1) + "]");
  }
  if (static_cast<int>(wavelengthM.size()) != samples) {
    refuse("the wavelength table has " + std::to_string(wavelengthM.size()) + " entries for " +
           std::to_string(samples) + " samples");
  }
  const bool rising = wavelengthM.back() > wavelengthM.front();
  for (std::size_t i = 0; i < wavelengthM.size(); ++i) {
    const double lambda = wavelengthM[i];
    if (!(lambda > 100e-9 && lambda < 20e-6)) {
      refuse("wavelength " + number(lambda) + " m at sample " + std::to_string(i) +
             " is not an optical wavelength (100 nm to 20 um)");
    }
    if (i > 0 && (lambda > wavelengthM[i - 1]) != rising) {
      refuse("the wavelength table is not strictly monotonic at sample " + std::to_string(i));
    }
  }
  if (!(centreWavelengthM > 0)) {
    refuse("centre wavelength " + number(centreWavelengthM) + " m must be > 0");
  }
  if (!(bandwidthM >= 0)) {
    refuse("bandwidth " + number(bandwidthM) + " m must be >= 0");
  }
  if (bscansPerVolume < 0) {
    refuse("B-scans per volume " + std::to_string(bscansPerVolume) + " must be >= 0");
  }
  if (!(lateralStepM > 0) || !(elevationStepM >= 0)) {
    refuse("the lateral step must be > 0 and the elevation step >= 0");
  }
  if (!(lineRateHz >= 0)) {
    refuse("line rate " + number(lineRateHz) + " Hz must be >= 0");
  }
}

std::vector<double> linearWavelengths(int samples, double firstM, double lastM) {
  std::vector<double> table(static_cast<std::size_t>(std::max(samples, 0)));
  for (int i = 0; i < samples; ++i) {
    table[static_cast<std::size_t>(i)] = firstM + (lastM - firstM) * i / std::max(samples - 1, 1);
  }
  return table;
}

}  // namespace cineflow::oct

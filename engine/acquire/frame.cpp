#include "acquire/frame.hpp"

#include "base/enum_names.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace cineflow::acquire {

std::size_t sampleBytes(SampleType type) noexcept {
  switch (type) {
    case SampleType::Int16:
      return 2;
    case SampleType::Float32:
      return 4;
  }
  return 0;
}

const char* toString(SampleType type) noexcept {
  static constexpr base::Named<SampleType> kNames[] = {{SampleType::Int16, "int16"},
                                                       {SampleType::Float32, "float32"}};
  return base::nameIn(kNames, type);
}

namespace {

void requirePositive(double value, const char* field) {
  if (!std::isfinite(value) || value <= 0) {
    throw std::invalid_argument(std::string(field) + " must be positive and finite (got " +
                                std::to_string(value) + ")");
  }
}

}  // namespace

void AcquisitionParams::validate() const {
  requirePositive(samplingFrequencyHz, "samplingFrequencyHz");
  requirePositive(centerFrequencyHz, "centerFrequencyHz");
  requirePositive(soundSpeedMPerS, "soundSpeedMPerS");
  if (!std::isfinite(t0S)) {
    throw std::invalid_argument("t0S must be finite");
  }
  if (anglesRad.empty()) {
    throw std::invalid_argument("anglesRad must hold at least one transmit angle");
  }
  if (elementXM.empty()) {
    throw std::invalid_argument("elementXM must hold at least one element position");
  }
  if (samples < 2) {
    throw std::invalid_argument("samples must be at least 2 (got " + std::to_string(samples) + ")");
  }
  for (std::size_t i = 0; i < anglesRad.size(); ++i) {
    // A plane wave steered to +-90 degrees never reaches depth; the delay model breaks down there.
    if (!std::isfinite(anglesRad[i]) || std::abs(anglesRad[i]) >= std::numbers::pi / 2) {
      throw std::invalid_argument("anglesRad[" + std::to_string(i) +
                                  "] must lie in (-pi/2, pi/2) (got " +
                                  std::to_string(anglesRad[i]) + ")");
    }
  }
  for (std::size_t i = 0; i < elementXM.size(); ++i) {
    if (!std::isfinite(elementXM[i])) {
      throw std::invalid_argument("elementXM[" + std::to_string(i) + "] is not finite");
    }
    if (i > 0 && !(elementXM[i] > elementXM[i - 1])) {
      throw std::invalid_argument("elementXM must be strictly increasing (elementXM[" +
                                  std::to_string(i) + "] = " + std::to_string(elementXM[i]) +
                                  " <= elementXM[" + std::to_string(i - 1) +
                                  "] = " + std::to_string(elementXM[i - 1]) + ")");
    }
  }
  if (!std::isfinite(fractionalBandwidth) || fractionalBandwidth < 0) {
    throw std::invalid_argument("fractionalBandwidth must be >= 0 and finite (0: unknown)");
  }
  if (!std::isfinite(pulseRepetitionFrequencyHz) || pulseRepetitionFrequencyHz < 0) {
    throw std::invalid_argument("pulseRepetitionFrequencyHz must be >= 0 and finite (0: unknown)");
  }
  if (framesPerVolume < 0) {
    throw std::invalid_argument("framesPerVolume must be >= 0 (0: not a volume acquisition)");
  }
}

}  // namespace cineflow::acquire

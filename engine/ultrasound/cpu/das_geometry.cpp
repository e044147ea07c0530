#include "ultrasound/cpu/das_geometry.hpp"

#include <algorithm>
#include <cmath>

namespace cineflow::ultrasound::cpu {

DasGeometry::DasGeometry(const acquire::AcquisitionParams& acq, const ImagingParams& imaging,
                         double sampleRateHz, std::size_t traceSamples)
    : transmits(static_cast<std::size_t>(acq.transmits())),
      elements(static_cast<std::size_t>(acq.elements())),
      samples(traceSamples),
      x0(imaging.grid.x0),
      dx(imaging.grid.dx),
      samplesPerMetre(sampleRateHz / acq.soundSpeedMPerS),
      firstSample(acq.t0S * sampleRateHz),
      halfApertureScale(1.0 / (2.0 * imaging.fNumber)),
      rectangular(imaging.apodisation == Apodisation::Rectangular),
      elementX(acq.elementXM) {
  const process::ImageGeometry geometry = imaging.geometry();
  pixelX.resize(static_cast<std::size_t>(geometry.nx));
  for (std::size_t i = 0; i < pixelX.size(); ++i) {
    pixelX[i] = geometry.x0 + static_cast<double>(i) * geometry.dx;
  }
  pixelXFloat.assign(pixelX.begin(), pixelX.end());
  pixelZ.resize(static_cast<std::size_t>(geometry.nz));
  for (std::size_t i = 0; i < pixelZ.size(); ++i) {
    pixelZ[i] = geometry.z0 + static_cast<double>(i) * geometry.dz;
  }
  for (double angle : acq.anglesRad) {
    cosSamples.push_back(std::cos(angle) * samplesPerMetre);
    sinSamples.push_back(std::sin(angle) * samplesPerMetre);
  }
  sinSamplesFloat.assign(sinSamples.begin(), sinSamples.end());
  splits.reserve(pixelZ.size() * transmits);
  for (const double z : pixelZ) {
    for (const double cosine : cosSamples) {
      splits.push_back(transmitSplit(z, cosine, samplesPerMetre, firstSample, samples));
    }
  }
}

std::pair<std::size_t, std::size_t> DasGeometry::apertureRun(double xe, double halfAperture) const {
  // Found from an estimate two pixels too wide on each side, then trimmed exactly.
  const auto nx = static_cast<double>(pixelX.size());
  const double first = std::floor((xe - halfAperture - x0) / dx) - 2;
  const double last = std::ceil((xe + halfAperture - x0) / dx) + 2;
  auto begin = static_cast<std::size_t>(std::clamp(first, 0.0, nx));
  auto end = static_cast<std::size_t>(std::clamp(last + 1, 0.0, nx));
  const auto inside = [&](std::size_t i) { return std::abs(pixelX[i] - xe) < halfAperture; };
  while (begin < end && !inside(begin)) {
    ++begin;
  }
  while (end > begin && !inside(end - 1)) {
    --end;
  }
  return {begin, end};
}

}  // namespace cineflow::ultrasound::cpu

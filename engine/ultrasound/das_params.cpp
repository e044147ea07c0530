#include "ultrasound/das_params.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "process/cuda/device_code.hpp"
#include "ultrasound/transmit_split.hpp"

namespace cineflow::ultrasound {

DasParams makeDasParams(const acquire::AcquisitionParams& acq, const ImagingParams& imaging,
                        double sampleRateHz, int samples) {
  if (acq.elements() > DasParams::kMaxElements || acq.transmits() > DasParams::kMaxTransmits) {
    throw std::invalid_argument("CUDA beamformer supports at most " +
                                std::to_string(DasParams::kMaxElements) + " elements and " +
                                std::to_string(DasParams::kMaxTransmits) + " transmits");
  }
  if (samples < 2) {
    throw std::invalid_argument("CUDA beamformer needs at least 2 samples per row");
  }
  const process::ImageGeometry g = imaging.geometry();
  DasParams p{};
  p.transmits = acq.transmits();
  p.elements = acq.elements();
  p.samples = samples;
  p.nx = g.nx;
  p.nz = g.nz;
  p.x0 = g.x0;
  p.dx = g.dx;
  p.z0 = g.z0;
  p.dz = g.dz;
  const double samplesPerMetre = sampleRateHz / acq.soundSpeedMPerS;
  p.samplesPerMetre = samplesPerMetre;
  p.firstSample = acq.t0S * sampleRateHz;
  p.halfApertureScale = 1.0 / (2.0 * imaging.fNumber);
  p.rectangular = imaging.apodisation == Apodisation::Rectangular ? 1 : 0;
  for (int t = 0; t < p.transmits; ++t) {
    p.cosSamples[t] = std::cos(acq.anglesRad[t]) * samplesPerMetre;
    p.sinSamples[t] = std::sin(acq.anglesRad[t]) * samplesPerMetre;
  }
  for (int e = 0; e < p.elements; ++e) {
    p.elementX[e] = acq.elementXM[e];
  }
  // Uniform spacing lets the kernel compute the aperture's element range instead of testing all.
  p.elementPitch = 0;
  if (p.elements >= 2) {
    const double pitch = (acq.elementXM.back() - acq.elementXM.front()) / (p.elements - 1);
    bool uniform = pitch > 0;
    for (int e = 0; uniform && e < p.elements; ++e) {
      uniform = std::abs(acq.elementXM[e] - (acq.elementXM.front() + e * pitch)) < 1e-3 * pitch;
    }
    p.elementPitch = uniform ? static_cast<float>(pitch) : 0.0f;
  }
  return p;
}

void makeTransmitSplitTables(const DasParams& p, std::vector<int>& base,
                             std::vector<float>& offset) {
  const auto entries = static_cast<std::size_t>(p.transmits) * static_cast<std::size_t>(p.nz);
  base.resize(entries);
  offset.resize(entries);
  for (int t = 0; t < p.transmits; ++t) {
    for (int iz = 0; iz < p.nz; ++iz) {
      const TransmitSplit split =
          transmitSplit(process::cuda::addProduct(p.z0, iz, p.dz), p.cosSamples[t],
                        p.samplesPerMetre, p.firstSample, static_cast<std::size_t>(p.samples));
      const std::size_t at = static_cast<std::size_t>(t) * p.nz + static_cast<std::size_t>(iz);
      base[at] = split.base;
      offset[at] = split.offset;
    }
  }
}

}  // namespace cineflow::ultrasound

#pragma once
// A spectral-domain OCT acquisition: what the raw frames of an OctSource are (oct_source.hpp).
//
// Raw frame (one B-scan): uint16 [ascans][samples], row-major, samples fastest: one spectrometer
// line per A-scan, in counts of `bitDepth` bits. Sample i was taken at wavelength wavelengthM[i]
// (monotonic; the spectrometer's calibration), so the samples are not evenly spaced in
// wavenumber k = 2 pi / lambda: the chain resamples them (k_linearisation.hpp). The last
// `flybackAscans` A-scans of every B-scan are the galvanometer's return and are not imaged;
// with bidirectional scanning every other B-scan runs the other way.

#include <cstdint>
#include <vector>

namespace cineflow::oct {

struct OctAcquisition {
  int samples = 0;                  // per A-scan (spectrometer pixels)
  int ascans = 0;                   // per B-scan, flyback included
  int bitDepth = 12;                // 12 or 16
  std::vector<double> wavelengthM;  // per sample, strictly monotonic
  double centreWavelengthM = 0;     // the light source's centre wavelength
  double bandwidthM = 0;            // the light source's -3 dB (FWHM) bandwidth; 0: not known
  int bscansPerVolume = 0;          // frames per volume (0: B-scans only)
  bool bidirectional = false;       // every other B-scan is scanned right to left
  int flybackAscans = 0;            // A-scans at the end of each B-scan not imaged
  double lateralStepM = 0;          // between A-scans (fast axis)
  double elevationStepM = 0;        // between B-scans (slow axis)
  double lineRateHz = 0;            // A-scans per second (0: not known)

  std::size_t samplesPerFrame() const {
    return static_cast<std::size_t>(samples) * static_cast<std::size_t>(ascans);
  }
  int imagedAscans() const { return ascans - flybackAscans; }
  // The wavenumber span the spectrometer covers, rad/m: 2 pi / lambda at the two ends.
  double kMin() const;
  double kMax() const;
  // Depth per pixel of the transformed A-scan, in air (one-way optical path): pi / (N dk) with
  // dk = (kMax - kMin) / (N - 1), N = samples.
  double axialPixelInAirM() const;
  // Throws std::invalid_argument naming the first inconsistent field.
  void validate() const;
};

// `samples` wavelengths evenly spaced from `firstM` to `lastM` (a spectrometer's usual linear
// calibration).
std::vector<double> linearWavelengths(int samples, double firstM, double lastM);

}  // namespace cineflow::oct

#pragma once
// OCT processing parameters (the OCT modality's ProcessingSettings, oct_modality.hpp) and the image
// they give. The chain (oct_processor.hpp), per A-scan of N samples:
//
//   raw counts -> minus the background (the operator's reference spectrum, or the mean spectrum of
//   this B-scan) -> resampled to N points evenly spaced in k, k_j = kMin + j dk
//   (kLinearisation) -> times the window w_j and the dispersion phase exp(-i phi(u_j)),
//   phi(u) = a2 u^2 + a3 u^3, u_j = (j - j0) / N -> complex FFT -> |X_n| / N in dB for the depth
//   pixels n in [depthFirst, depthLast) -> image column.
//
// The dispersion is stated about the centre wavenumber k0 = 2 pi / lambda0 (lambda0: the
// operator's dispersionCentreM, or the acquisition's centre wavelength), as labs state it: j0 is
// the (fractional) output sample where the resampled grid has wavenumber k0, so
// u = (k - k0) / (N dk), the offset from k0 in units of the grid's span N dk = pi / axial pixel,
// and a2, a3 are radians of phase at u = 1. The phase has neither a constant nor a linear part
// about k0 (phi(k0) = phi'(k0) = 0): compensation adds no group delay at the centre wavenumber, so
// it never moves a reflector, whose depth stays its group delay at k0; only its sharpness changes.
//
// Multiplying the real spectrum by the complex phase keeps one side of the transform compensated
// (positive depths, which are kept) and doubles the dispersion of the mirror image (negative
// depths, which are dropped): one complex FFT per A-scan, as with an analytic spectrum.
// Depth pixel n lies at n * axialPixelInAirM() / refractiveIndex.

#include <string>
#include <vector>

#include "oct/oct_acquisition.hpp"
#include "process/image_geometry.hpp"

namespace cineflow::oct {

enum class Background { RollingMean, Reference };
enum class KLinearisation {
  Wavelengths,  // from the acquisition's wavelength table (exact for a calibrated spectrometer)
  Polynomial,   // raw index = c0 + c1 j + c2 j^2 + c3 j^3 for output sample j
  Table,        // raw index per output sample, e.g. read from a file
  None,         // the samples are already linear in k
};
enum class Interpolation { Linear, Cubic };
enum class SpectralWindow { Hann, Gaussian, Rectangular };

const char* toString(Background value) noexcept;      // "rolling-mean" | "reference"
const char* toString(KLinearisation value) noexcept;  // "wavelengths" | "polynomial" | ...
const char* toString(Interpolation value) noexcept;   // "linear" | "cubic"
const char* toString(SpectralWindow value) noexcept;  // "hann" | "gaussian" | "rectangular"
// "hann", "gaussian", "rect" or "rectangular"; throws std::invalid_argument otherwise.
SpectralWindow parseSpectralWindow(const std::string& text);

// The floor of |X| / N before the logarithm: -200 dB, far below any displayed range.
inline constexpr float kDbFloor = 1e-10f;

struct OctParams {
  Background background = Background::RollingMean;
  std::vector<float> reference;  // Reference: one value per sample, in counts
  KLinearisation kLinearisation = KLinearisation::Wavelengths;
  std::vector<double> kPolynomial;  // Polynomial: c0, c1, c2, c3 (missing ones are 0)
  std::vector<float> kTable;        // Table: samples raw indices
  Interpolation interpolation = Interpolation::Cubic;
  double a2 = 0.0;  // dispersion, radians at u = 1 (see above)
  double a3 = 0.0;
  // The wavelength a2 and a3 are stated about, metres; 0: the acquisition's centre wavelength.
  double dispersionCentreM = 0.0;
  SpectralWindow window = SpectralWindow::Hann;
  int depthFirst = 0;            // first depth pixel shown
  int depthLast = 0;             // one past the last; 0: samples / 2 (every positive depth)
  double refractiveIndex = 1.0;  // group index of the sample: depth = optical path / n

  static OctParams defaultsFor(const OctAcquisition& acquisition);
  // Throws std::invalid_argument naming the first parameter `acquisition` cannot be imaged with;
  // among them a2 or a3 beyond dispersionLimits() or nonzero below 1e-12 (physical units typed
  // into the radian fields), and a dispersion centre outside the spectrometer's wavelengths.
  void validate(const OctAcquisition& acquisition) const;
  // The wavelength the dispersion is stated about: dispersionCentreM, or the acquisition's.
  double dispersionCentre(const OctAcquisition& acquisition) const;
  int lastDepth(const OctAcquisition& acquisition) const;  // depthLast, 0 resolved
  // [z][x]: x across the imaged A-scans (centred on 0), z the depth pixels kept.
  process::ImageGeometry geometry(const OctAcquisition& acquisition) const;
};

// The tables the chain applies, made once per configuration (both backends use them):
// raw index of each output sample, the window, and the dispersion phase's cosine and sine
// (exp(-i phi) = cos phi - i sin phi, stored as cos phi and -sin phi).
struct SpectralTables {
  std::vector<float> positions;  // N raw indices in [0, N - 1]
  std::vector<float> window;     // N
  std::vector<float> phaseCos;   // N: w_j cos(phi_j)
  std::vector<float> phaseSin;   // N: -w_j sin(phi_j)
};
SpectralTables makeSpectralTables(const OctParams& params, const OctAcquisition& acquisition);

// The resampling as taps, for both backends' fast paths: output sample j is
// sum_k weights[4 j + k] * (raw - background)[first[j] - 1 + k], raw indices clamped to the
// spectrum (linear interpolation uses the middle two weights; Catmull-Rom all four).
struct InterpolationTaps {
  std::vector<int> first;      // N: the raw index of the second tap
  std::vector<float> weights;  // [N][4]
};
InterpolationTaps makeTaps(const std::vector<float>& positions, Interpolation interpolation);

// The raw index where the spectrum has wavenumber kMin + j dk, for each j (strictly monotonic
// wavelength table; linear interpolation of the index between samples).
std::vector<float> positionsFromWavelengths(const std::vector<double>& wavelengthM);
// The dispersion phase phi(u) = a2 u^2 + a3 u^3, u = (j - centreSample) / n, at output sample j
// of n.
double dispersionPhase(double a2, double a3, int j, double centreSample, int n);
// The fractional output sample j0 where the resampled grid has wavenumber 2 pi / `wavelengthM`:
// the wavenumbers of the first and last output samples (their raw indices `positions`, k
// interpolated linearly between the acquisition's samples), extended linearly.
double centreSample(const OctAcquisition& acquisition, const std::vector<float>& positions,
                    double wavelengthM);

// The largest |a2| and |a3| the phase table can mean for `samples` samples: pi N / 2 and pi N.
// Either alone, at the edges of the band (|u| = 1/2), delays the spectrum there by a quarter
// (a2) or three eighths (a3) of the depth range, N / 2 pixels: a PSF smeared over the image.
// Values beyond are physical units (fs^2, fs^3) typed into the radian fields.
struct DispersionLimits {
  double a2 = 0, a3 = 0;
};
DispersionLimits dispersionLimits(int samples);

// a2 of a dispersion (a2, a3) stated about output sample `from` restated about output sample `to`
// (of n): a2 + 3 a3 (to - from) / n, the same quadratic phase (a3 stays as it is). The constant
// and linear parts that moving the centre adds are left out: they only move depths.
double restatedA2(double a2, double a3, double from, double to, int n);

}  // namespace cineflow::oct

#include "oct/oct_params.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>
#include <tuple>

#include "acquire/frame_source.hpp"
#include "base/enum_names.hpp"

namespace cineflow::oct {
namespace {

[[noreturn]] void refuse(const std::string& what) {
  throw std::invalid_argument("OCT processing: " + what);
}

using acquire::numberText;

// A Gaussian window's standard deviation, in samples per sample count: the edges sit 2.5 sigma
// from the centre (4 % of the peak).
constexpr double kGaussianSigma = 0.2;

}  // namespace

namespace {

constexpr base::Named<Background> kBackgrounds[] = {{Background::RollingMean, "rolling-mean"},
                                                    {Background::Reference, "reference"}};
constexpr base::Named<KLinearisation> kKLinearisations[] = {
    {KLinearisation::Wavelengths, "wavelengths"},
    {KLinearisation::Polynomial, "polynomial"},
    {KLinearisation::Table, "table"},
    {KLinearisation::None, "none"}};
constexpr base::Named<Interpolation> kInterpolations[] = {{Interpolation::Cubic, "cubic"},
                                                          {Interpolation::Linear, "linear"}};
constexpr base::Named<SpectralWindow> kSpectralWindows[] = {
    {SpectralWindow::Hann, "hann"},
    {SpectralWindow::Gaussian, "gaussian"},
    {SpectralWindow::Rectangular, "rectangular"},
    {SpectralWindow::Rectangular, "rect"}};

}  // namespace

const char* toString(Background value) noexcept {
  return base::nameIn(kBackgrounds, value, "rolling-mean");
}

const char* toString(KLinearisation value) noexcept {
  return base::nameIn(kKLinearisations, value, "wavelengths");
}

const char* toString(Interpolation value) noexcept {
  return base::nameIn(kInterpolations, value, "cubic");
}

const char* toString(SpectralWindow value) noexcept {
  return base::nameIn(kSpectralWindows, value, "hann");
}

SpectralWindow parseSpectralWindow(const std::string& text) {
  return base::parseIn(kSpectralWindows, text, "spectral window");
}

OctParams OctParams::defaultsFor(const OctAcquisition&) {
  return OctParams{};
}

double OctParams::dispersionCentre(const OctAcquisition& acquisition) const {
  return dispersionCentreM > 0.0 ? dispersionCentreM : acquisition.centreWavelengthM;
}

int OctParams::lastDepth(const OctAcquisition& acquisition) const {
  return depthLast > 0 ? depthLast : acquisition.samples / 2;
}

void OctParams::validate(const OctAcquisition& acquisition) const {
  const int n = acquisition.samples;
  if (background == Background::Reference && static_cast<int>(reference.size()) != n) {
    refuse("the reference spectrum has " + std::to_string(reference.size()) +
           " values for A-scans of " + std::to_string(n) + " samples; capture it again");
  }
  if (kLinearisation == KLinearisation::Table) {
    if (static_cast<int>(kTable.size()) != n) {
      refuse("the k-linearisation table has " + std::to_string(kTable.size()) + " entries for " +
             std::to_string(n) + " samples");
    }
    for (const float position : kTable) {
      if (!(position >= 0.0f && position <= static_cast<float>(n - 1))) {
        refuse("the k-linearisation table points outside the spectrum [0, " +
               std::to_string(n - 1) + "]");
      }
    }
  }
  if (kLinearisation == KLinearisation::Polynomial) {
    if (kPolynomial.empty() || kPolynomial.size() > 4) {
      refuse(
          "the k-linearisation polynomial needs 1 to 4 coefficients (c0 + c1 j + c2 j^2 + c3 "
          "j^3)");
    }
    for (const double c : kPolynomial) {
      if (!std::isfinite(c)) {
        refuse("a k-linearisation coefficient is not a number");
      }
    }
  }
  if (!std::isfinite(a2) || !std::isfinite(a3)) {
    refuse("the dispersion coefficients must be numbers");
  }
  const DispersionLimits limits = dispersionLimits(n);
  for (const auto& [name, value, limit] :
       {std::tuple{"a2", a2, limits.a2}, std::tuple{"a3", a3, limits.a3}}) {
    if (std::abs(value) > limit || (value != 0.0 && std::abs(value) < 1e-12)) {
      refuse(std::string("dispersion ") + name + " = " + numberText(value) +
             " rad is not a phase the chain can apply to " + std::to_string(n) + " samples (|" +
             name + "| <= " + numberText(limit) +
             " rad): a2 and a3 are radians of phase at u = (k - k0) / (N dk) = 1, not physical "
             "units (fs^2, fs^3 or s^2, s^3)");
    }
  }
  if (!(dispersionCentreM == 0.0 ||
        (std::isfinite(dispersionCentreM) && dispersionCentreM > 0.0))) {
    refuse("the dispersion's centre wavelength " + numberText(dispersionCentreM) +
           " m must be a positive number (0: the acquisition's centre wavelength)");
  }
  if (a2 != 0.0 || a3 != 0.0) {
    const auto [shortest, longest] =
        std::minmax_element(acquisition.wavelengthM.begin(), acquisition.wavelengthM.end());
    const double centre = dispersionCentre(acquisition);
    if (centre < *shortest || centre > *longest) {
      refuse(std::string(dispersionCentreM > 0.0 ? "the dispersion's centre wavelength "
                                                 : "the acquisition's centre wavelength ") +
             numberText(centre * 1e9) + " nm lies outside the spectrometer's " +
             numberText(*shortest * 1e9) + " to " + numberText(*longest * 1e9) +
             " nm: dispersion is stated about a wavelength inside the band");
    }
  }
  if (!(refractiveIndex >= 1.0 && refractiveIndex <= 4.0)) {
    refuse("refractive index " + std::to_string(refractiveIndex) + " outside [1, 4]");
  }
  const int last = lastDepth(acquisition);
  if (depthFirst < 0 || last > n / 2 || depthFirst >= last) {
    refuse("depth pixels [" + std::to_string(depthFirst) + ", " + std::to_string(last) +
           ") must lie in [0, " + std::to_string(n / 2) + "] and not be empty");
  }
}

process::ImageGeometry OctParams::geometry(const OctAcquisition& acquisition) const {
  process::ImageGeometry geometry;
  geometry.nx = acquisition.imagedAscans();
  geometry.dx = acquisition.lateralStepM;
  geometry.x0 = -0.5 * (geometry.nx - 1) * geometry.dx;
  geometry.nz = lastDepth(acquisition) - depthFirst;
  geometry.dz = acquisition.axialPixelInAirM() / refractiveIndex;
  geometry.z0 = depthFirst * geometry.dz;
  return geometry;
}

std::vector<float> positionsFromWavelengths(const std::vector<double>& wavelengthM) {
  const int n = static_cast<int>(wavelengthM.size());
  std::vector<double> k(wavelengthM.size());
  for (int i = 0; i < n; ++i) {
    k[static_cast<std::size_t>(i)] =
        2.0 * std::numbers::pi / wavelengthM[static_cast<std::size_t>(i)];
  }
  const bool rising = k.back() > k.front();
  const double kMin = std::min(k.front(), k.back());
  const double kMax = std::max(k.front(), k.back());
  std::vector<float> positions(wavelengthM.size());
  int below = 0;  // walks along the table: the targets rise in k
  for (int j = 0; j < n; ++j) {
    const double target = kMin + (kMax - kMin) * j / (n - 1);
    // In rising-k order the raw index is i (rising) or n - 1 - i (falling wavelength order).
    const auto kAt = [&](int step) {
      return k[static_cast<std::size_t>(rising ? step : n - 1 - step)];
    };
    while (below < n - 2 && kAt(below + 1) < target) {
      ++below;
    }
    const double k0 = kAt(below), k1 = kAt(below + 1);
    const double t = std::clamp((target - k0) / (k1 - k0), 0.0, 1.0);
    const double step = below + t;
    positions[static_cast<std::size_t>(j)] = static_cast<float>(rising ? step : (n - 1) - step);
  }
  return positions;
}

InterpolationTaps makeTaps(const std::vector<float>& positions, Interpolation interpolation) {
  const int n = static_cast<int>(positions.size());
  InterpolationTaps taps;
  taps.first.resize(positions.size());
  taps.weights.assign(4 * positions.size(), 0.0f);
  for (int j = 0; j < n; ++j) {
    const float position = positions[static_cast<std::size_t>(j)];
    const int i = std::min(static_cast<int>(position), n - 2);
    const float t = position - static_cast<float>(i);
    taps.first[static_cast<std::size_t>(j)] = i;
    float* w = taps.weights.data() + 4 * static_cast<std::size_t>(j);
    if (interpolation == Interpolation::Linear) {
      w[1] = 1.0f - t;
      w[2] = t;
    } else {  // Catmull-Rom weights of the samples i - 1 .. i + 2
      const float t2 = t * t, t3 = t2 * t;
      w[0] = -0.5f * t3 + t2 - 0.5f * t;
      w[1] = 1.5f * t3 - 2.5f * t2 + 1.0f;
      w[2] = -1.5f * t3 + 2.0f * t2 + 0.5f * t;
      w[3] = 0.5f * t3 - 0.5f * t2;
    }
  }
  return taps;
}

double dispersionPhase(double a2, double a3, int j, double centreSample, int n) {
  const double u = (j - centreSample) / n;
  return u * u * (a2 + a3 * u);
}

double centreSample(const OctAcquisition& acquisition, const std::vector<float>& positions,
                    double wavelengthM) {
  const std::vector<double>& wavelengths = acquisition.wavelengthM;
  const int last = static_cast<int>(wavelengths.size()) - 1;
  const auto kAt = [&](double position) {
    const int i = std::clamp(static_cast<int>(position), 0, last - 1);
    const double t = position - i;
    const double k0 = 2.0 * std::numbers::pi / wavelengths[static_cast<std::size_t>(i)];
    const double k1 = 2.0 * std::numbers::pi / wavelengths[static_cast<std::size_t>(i + 1)];
    return k0 + t * (k1 - k0);
  };
  const double kFirst = kAt(positions.front());
  const double kLast = kAt(positions.back());
  const double k = 2.0 * std::numbers::pi / wavelengthM;
  const auto n = static_cast<double>(positions.size());
  return kLast == kFirst ? 0.5 * n : (n - 1) * (k - kFirst) / (kLast - kFirst);
}

DispersionLimits dispersionLimits(int samples) {
  return {0.5 * std::numbers::pi * samples, std::numbers::pi * samples};
}

double restatedA2(double a2, double a3, double from, double to, int n) {
  return a2 + 3.0 * a3 * (to - from) / n;
}

SpectralTables makeSpectralTables(const OctParams& params, const OctAcquisition& acquisition) {
  const int n = acquisition.samples;
  SpectralTables tables;
  switch (params.kLinearisation) {
    case KLinearisation::Wavelengths:
      tables.positions = positionsFromWavelengths(acquisition.wavelengthM);
      break;
    case KLinearisation::Table:
      tables.positions = params.kTable;
      break;
    case KLinearisation::Polynomial:
    case KLinearisation::None:
      tables.positions.resize(static_cast<std::size_t>(n));
      for (int j = 0; j < n; ++j) {
        double position = j;
        if (params.kLinearisation == KLinearisation::Polynomial) {
          position = 0.0;
          for (std::size_t c = params.kPolynomial.size(); c-- > 0;) {
            position = position * j + params.kPolynomial[c];
          }
        }
        tables.positions[static_cast<std::size_t>(j)] =
            static_cast<float>(std::clamp(position, 0.0, static_cast<double>(n - 1)));
      }
      break;
  }
  const double j0 =
      centreSample(acquisition, tables.positions, params.dispersionCentre(acquisition));
  tables.window.resize(static_cast<std::size_t>(n));
  tables.phaseCos.resize(static_cast<std::size_t>(n));
  tables.phaseSin.resize(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j) {
    double w = 1.0;
    if (params.window == SpectralWindow::Hann) {
      w = 0.5 - 0.5 * std::cos(2.0 * std::numbers::pi * j / (n - 1));
    } else if (params.window == SpectralWindow::Gaussian) {
      const double x = (j - 0.5 * (n - 1)) / (kGaussianSigma * n);
      w = std::exp(-0.5 * x * x);
    }
    const double phi = dispersionPhase(params.a2, params.a3, j, j0, n);
    const auto at = static_cast<std::size_t>(j);
    tables.window[at] = static_cast<float>(w);
    tables.phaseCos[at] = static_cast<float>(w * std::cos(phi));
    tables.phaseSin[at] = static_cast<float>(-w * std::sin(phi));
  }
  return tables;
}

}  // namespace cineflow::oct

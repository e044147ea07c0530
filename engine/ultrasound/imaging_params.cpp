#include "ultrasound/imaging_params.hpp"

#include "base/enum_names.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <vector>

namespace cineflow::ultrasound {
namespace {

// Largest image the chain accepts: 16 M pixels (64 MiB per float image), far above any real grid
// but small enough that a typo in a step ("0.0001") fails here rather than in an allocation.
constexpr double kMaxPixels = 16.0 * 1024.0 * 1024.0;

// Samples at origin + i * step for i in [0, n), n the largest count with the last sample at most
// `last` (+ step/1000, so that "0:10:0.1" keeps its last sample despite rounding).
int sampleCount(double origin, double last, double step) {
  if (!(step > 0) || !std::isfinite(origin) || !std::isfinite(last) || !std::isfinite(step) ||
      last < origin) {
    return 0;
  }
  const double count = std::floor((last - origin) / step + 1e-3) + 1.0;
  return count >= static_cast<double>(std::numeric_limits<int>::max())
             ? std::numeric_limits<int>::max()
             : static_cast<int>(count);
}

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) {
    return {};
  }
  const auto last = text.find_last_not_of(" \t");
  return text.substr(first, last - first + 1);
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const auto end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) {
      return parts;
    }
    start = end + 1;
  }
}

[[noreturn]] void throwGridError(const std::string& text, const std::string& reason) {
  throw std::invalid_argument("imaging grid '" + text + "': " + reason +
                              " (expected x0:x1:dx,z0:z1:dz in millimetres, e.g. "
                              "-19:19:0.15,5:40:0.04)");
}

double parseNumber(const std::string& text, std::string_view field, const char* name) {
  const std::string_view trimmed = trim(field);
  double value = 0;
  const auto [end, error] = std::from_chars(trimmed.data(), trimmed.data() + trimmed.size(), value);
  if (trimmed.empty() || error != std::errc() || end != trimmed.data() + trimmed.size()) {
    throwGridError(text, std::string(name) + " '" + std::string(field) + "' is not a number");
  }
  if (!std::isfinite(value)) {
    throwGridError(text, std::string(name) + " must be finite");
  }
  return value;
}

// The shortest decimal millimetre text that parseMillimetres() (value * 1e-3) turns back into
// `metres` to within a few units in the last place (the scaling by 1e-3 itself rounds): "7.363",
// where printing metres * 1e3 in full would give "7.3629999999999995".
std::string millimetres(double metres) {
  char buffer[64];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, metres * 1e3);
    double parsed = 0;
    std::from_chars(buffer, buffer + std::strlen(buffer), parsed);
    if (std::abs(parsed * 1e-3 - metres) <=
        4 * std::numeric_limits<double>::epsilon() * std::abs(metres)) {
      return buffer;
    }
  }
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), metres * 1e3);
  return std::string(buffer, result.ptr);
}

// Numbers in messages are for people: 3 significant digits ("-19 mm", "0.15 mm", "56.2 M").
std::string readable(double value, const char* unit) {
  value = value == 0 ? 0.0 : value;  // a negative zero reads "0", not "-0"
  char text[48];
  std::snprintf(text, sizeof text, "%.3g%s", value, unit);
  return text;
}
std::string readableMillimetres(double metres) {
  return readable(metres * 1e3, " mm");
}
std::string readableGrid(const ImagingGrid& g) {
  return "x " + readable(g.x0 * 1e3, "") + " to " + readable(g.x1 * 1e3, "") + " step " +
         readableMillimetres(g.dx) + ", depth " + readable(g.z0 * 1e3, "") + " to " +
         readable(g.z1 * 1e3, "") + " step " + readableMillimetres(g.dz);
}
std::string readableCount(double count) {
  return count >= 1e6 ? readable(count * 1e-6, " M") : readable(count, "");
}

}  // namespace

int ImagingGrid::nx() const {
  return sampleCount(x0, x1, dx);
}
int ImagingGrid::nz() const {
  return sampleCount(z0, z1, dz);
}

ImagingGrid ImagingGrid::parseMillimetres(const std::string& text) {
  const auto axes = split(text, ',');
  if (axes.size() != 2) {
    throwGridError(text, "need exactly two axes separated by ','");
  }
  const char* names[2][3] = {{"x0", "x1", "dx"}, {"z0", "z1", "dz"}};
  double values[2][3] = {};
  for (int axis = 0; axis < 2; ++axis) {
    const auto fields = split(axes[static_cast<std::size_t>(axis)], ':');
    if (fields.size() != 3) {
      throwGridError(text, std::string("axis ") + (axis == 0 ? "x" : "z") +
                               " needs three values first:last:step separated by ':'");
    }
    for (int i = 0; i < 3; ++i) {
      values[axis][i] = parseNumber(text, fields[static_cast<std::size_t>(i)], names[axis][i]);
    }
    if (!(values[axis][2] > 0)) {
      throwGridError(text, std::string(names[axis][2]) + " must be > 0");
    }
    if (values[axis][1] < values[axis][0]) {
      throwGridError(text,
                     std::string(names[axis][1]) + " must be >= " + std::string(names[axis][0]));
    }
  }
  ImagingGrid grid;
  grid.x0 = values[0][0] * 1e-3;
  grid.x1 = values[0][1] * 1e-3;
  grid.dx = values[0][2] * 1e-3;
  grid.z0 = values[1][0] * 1e-3;
  grid.z1 = values[1][1] * 1e-3;
  grid.dz = values[1][2] * 1e-3;
  return grid;
}

std::string ImagingGrid::toMillimetreString() const {
  return millimetres(x0) + ":" + millimetres(x1) + ":" + millimetres(dx) + "," + millimetres(z0) +
         ":" + millimetres(z1) + ":" + millimetres(dz);
}

namespace {

constexpr base::Named<ImagingMode> kImagingModes[] = {
    {ImagingMode::Rf, "rf"},
    {ImagingMode::Iq, "iq"},
    {ImagingMode::ColourDoppler, "doppler"},
    {ImagingMode::PowerDoppler, "power-doppler"},
    {ImagingMode::ColourDoppler, "colour-doppler"},
    {ImagingMode::ColourDoppler, "color-doppler"}};
constexpr base::Named<Apodisation> kApodisations[] = {{Apodisation::Hann, "hann"},
                                                      {Apodisation::Rectangular, "rect"}};

}  // namespace

const char* toString(ImagingMode mode) noexcept {
  return base::nameIn(kImagingModes, mode, "rf");
}

ImagingMode parseImagingMode(const std::string& text) {
  return base::parseIn(kImagingModes, text, "imaging mode");
}

bool isDoppler(ImagingMode mode) noexcept {
  return mode == ImagingMode::ColourDoppler || mode == ImagingMode::PowerDoppler;
}

bool usesIqChain(ImagingMode mode) noexcept {
  return mode != ImagingMode::Rf;
}

const char* toString(Apodisation apodisation) noexcept {
  return base::nameIn(kApodisations, apodisation, "hann");
}

Apodisation parseApodisation(const std::string& text) {
  return base::parseIn(kApodisations, text, "apodisation");
}

bool isBandpassSampled(const acquire::AcquisitionParams& acq) {
  return acq.samplingFrequencyHz < 2 * acq.centerFrequencyHz;
}

std::string bandpassSamplingNotice(const acquire::AcquisitionParams& acq) {
  if (!isBandpassSampled(acq)) {
    return {};
  }
  char text[160];
  std::snprintf(text, sizeof text,
                "sampled at %.2f MHz, below 2 x f0 = %.2f MHz: imaging in I/Q mode",
                acq.samplingFrequencyHz * 1e-6, 2 * acq.centerFrequencyHz * 1e-6);
  return text;
}

double ImagingParams::iqBandwidthFor(const acquire::AcquisitionParams& acq) const {
  if (iqBandwidthRel > 0) {
    return iqBandwidthRel;
  }
  return acq.fractionalBandwidth > 0 ? acq.fractionalBandwidth : kDefaultIqBandwidthRel;
}

std::pair<double, double> ImagingParams::rfBandFor(const acquire::AcquisitionParams& acq) const {
  if (bandLowRel > 0 || bandHighRel > 0) {
    return {bandLowRel, bandHighRel};
  }
  // Zero-phase filtering keeps an echo where it is, but the envelope of a wide band can have a
  // flat, rippled top whose highest ripple is not the pulse's centre: passing only the echoes'
  // own band smooths it into one peak at the centre.
  const double bandwidth =
      acq.fractionalBandwidth > 0 ? std::min(acq.fractionalBandwidth, 1.8) : kDefaultIqBandwidthRel;
  return {1 - bandwidth / 2, 1 + bandwidth / 2};
}

double ImagingParams::rfDepthStepLimit(const acquire::AcquisitionParams& acq) const {
  if (mode != ImagingMode::Rf || !(acq.centerFrequencyHz > 0)) {
    return 0;
  }
  const double highest = rfBandFor(acq).second * acq.centerFrequencyHz;
  return acq.soundSpeedMPerS / (4 * highest);
}

std::string ImagingParams::coarseRfGridNotice(const acquire::AcquisitionParams& acq) const {
  const double limit = rfDepthStepLimit(acq);
  if (!(limit > 0) || grid.dz <= limit) {
    return {};
  }
  char text[200];
  std::snprintf(text, sizeof text,
                "RF mode on a depth step of %.3f mm aliases the echoes' band (up to %.2f MHz): "
                "use a step of at most %.3f mm, or --mode iq",
                grid.dz * 1e3, rfBandFor(acq).second * acq.centerFrequencyHz * 1e-6,
                std::floor(limit * 1e6) * 1e-3);
  return text;
}

double ImagingParams::recordedDepthM(const acquire::AcquisitionParams& acq) {
  return acq.soundSpeedMPerS * (acq.t0S + (acq.samples - 1) / acq.samplingFrequencyHz) / 2;
}

std::string ImagingParams::gridPastDataNotice(const acquire::AcquisitionParams& acq) const {
  const double deepest = recordedDepthM(acq);
  const double span = grid.z1 - grid.z0;
  if (!(span > 0) || !(grid.z1 - deepest > kPastDataTolerance * span)) {
    return {};
  }
  const double below = std::min(1.0, (grid.z1 - std::max(deepest, grid.z0)) / span);
  char text[200];
  std::snprintf(text, sizeof text,
                "the grid reaches %.1f mm but the recording ends at about %.1f mm: the %.0f %% of "
                "its rows below are black and still cost time",
                grid.z1 * 1e3, deepest * 1e3, below * 100);
  return text;
}

int ImagingParams::rfUpsamplingFor(const acquire::AcquisitionParams& acq) const {
  if (rfUpsampling > 0) {
    return rfUpsampling;
  }
  const double nyquist = acq.samplingFrequencyHz / 2;
  const double highHz = std::min(rfBandFor(acq).second * acq.centerFrequencyHz, nyquist);
  const double factor = std::ceil(kRfSamplesPerPeriod * highHz / acq.samplingFrequencyHz - 1e-9);
  return static_cast<int>(std::clamp(factor, 1.0, static_cast<double>(kMaxRfUpsampling)));
}

ImagingParams ImagingParams::defaultsFor(const acquire::AcquisitionParams& acq) {
  acq.validate();
  const double lambda = acq.wavelengthM();
  const double c = acq.soundSpeedMPerS;
  const auto [minX, maxX] = std::minmax_element(acq.elementXM.begin(), acq.elementXM.end());
  ImagingParams params;
  params.grid.x0 = *minX;
  params.grid.x1 = *maxX;
  params.grid.dx = lambda / 2;
  // Depth of the first sample for a plane wave at normal incidence; nothing shallower is seen.
  params.grid.z0 = std::max(5e-3, c * acq.t0S / 2);
  params.grid.z1 = recordedDepthM(acq);
  params.grid.dz = lambda / 8;
  params.mode = isBandpassSampled(acq) ? ImagingMode::Iq : ImagingMode::Rf;
  return params;
}

process::ImageGeometry ImagingParams::geometry() const {
  process::ImageGeometry geometry;
  geometry.nx = grid.nx();
  geometry.nz = grid.nz();
  geometry.x0 = grid.x0;
  geometry.dx = grid.dx;
  geometry.z0 = grid.z0;
  geometry.dz = grid.dz;
  return geometry;
}

process::ImageGeometry ImagingParams::imageGeometry(const acquire::AcquisitionParams& acq) const {
  process::ImageGeometry image = geometry();
  if (isDoppler(mode)) {
    image.layers = process::kFlowImageLayers;
    image.aliasingVelocity = doppler.aliasingVelocityFor(acq);
  }
  return image;
}

void ImagingParams::validate(const acquire::AcquisitionParams& acq) const {
  acq.validate();  // the limits below are relative to the acquisition (Nyquist, wavelength)
  const auto fail = [](const std::string& message) {
    throw std::invalid_argument("imaging parameters: " + message);
  };
  const double all[] = {grid.x0, grid.x1, grid.dx, grid.z0, grid.z1, grid.dz};
  if (!std::all_of(std::begin(all), std::end(all), [](double v) { return std::isfinite(v); })) {
    fail("the grid (" + readableGrid(grid) + ") has a non-finite value");
  }
  if (!(grid.dx > 0) || !(grid.dz > 0)) {
    fail("grid steps dx and dz must be > 0 (got dx " + readableMillimetres(grid.dx) + ", dz " +
         readableMillimetres(grid.dz) + ")");
  }
  if (grid.x1 < grid.x0) {
    fail("the grid (" + readableGrid(grid) + ") runs backwards laterally: its right edge (" +
         readableMillimetres(grid.x1) + ") must not be left of its left edge (" +
         readableMillimetres(grid.x0) + ")");
  }
  if (grid.z1 < grid.z0) {
    fail("the grid (" + readableGrid(grid) + ") runs backwards in depth: its deepest row (" +
         readableMillimetres(grid.z1) + ") must not be above its shallowest (" +
         readableMillimetres(grid.z0) + ")");
  }
  if (grid.z0 < 0) {
    fail("grid depth z0 must be >= 0 mm (got " + readableMillimetres(grid.z0) + ")");
  }
  const double pixels = (std::floor((grid.x1 - grid.x0) / grid.dx + 1e-3) + 1.0) *
                        (std::floor((grid.z1 - grid.z0) / grid.dz + 1e-3) + 1.0);
  if (pixels > kMaxPixels) {
    fail("the grid (" + readableGrid(grid) + ") has " + readableCount(pixels) +
         " pixels; at most " + readableCount(kMaxPixels) + " (2^24) are accepted");
  }
  if (!(fNumber >= 0.1 && fNumber <= 20)) {
    fail("fNumber " + readable(fNumber, "") + " is outside [0.1, 20]");
  }
  if (firTaps < 3 || firTaps > 511 || firTaps % 2 == 0) {
    fail("firTaps " + std::to_string(firTaps) + " must be odd and in [3, 511]");
  }
  const bool derivedBand = bandLowRel == 0 && bandHighRel == 0;
  if (!derivedBand &&
      (!(bandLowRel > 0 && bandLowRel < bandHighRel) || !std::isfinite(bandHighRel))) {
    fail("band edges must satisfy 0 < bandLowRel < bandHighRel, or both be 0 (got " +
         readable(bandLowRel, "") + ", " + readable(bandHighRel, "") + ")");
  }
  if (rfUpsampling < 0 || rfUpsampling > kMaxRfUpsampling) {
    fail("the RF interpolation factor " + std::to_string(rfUpsampling) + " is outside [0, " +
         std::to_string(kMaxRfUpsampling) + "] (0: chosen from the band)");
  }
  const auto mhz = [](double hz) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f MHz", hz * 1e-6);
    return std::string(text);
  };
  if (mode == ImagingMode::Rf) {
    if (isBandpassSampled(acq)) {
      fail("the RF is sampled at " + mhz(acq.samplingFrequencyHz) + ", below 2 x f0 = " +
           mhz(2 * acq.centerFrequencyHz) + ": RF mode cannot image it; use I/Q mode (iq)");
    }
    // The bandpass clamps its upper edge just below Nyquist; the lower edge must stay under it.
    const double nyquistRel = 0.98 * acq.samplingFrequencyHz / 2 / acq.centerFrequencyHz;
    const double lowRel = rfBandFor(acq).first;
    if (!(lowRel < nyquistRel)) {
      fail("the bandpass's low edge " + mhz(lowRel * acq.centerFrequencyHz) +
           " must be below 0.98 x fs / 2 = " + mhz(nyquistRel * acq.centerFrequencyHz));
    }
    return;
  }
  validateIq(acq);
  if (isDoppler(mode)) {
    doppler.validate(acq, geometry());
  }
}

void ImagingParams::validateIq(const acquire::AcquisitionParams& acq) const {
  const auto fail = [](const std::string& message) {
    throw std::invalid_argument("imaging parameters: " + message);
  };
  const auto mhz = [](double hz) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f MHz", hz * 1e-6);
    return std::string(text);
  };
  const auto percent = [](double relative) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g %%", relative * 100);
    return std::string(text);
  };
  if (!(iqBandwidthRel >= 0 && iqBandwidthRel <= 2)) {
    fail("the I/Q bandwidth " + percent(iqBandwidthRel) +
         " of f0 is outside [0, 200] % (0: the acquisition's bandwidth)");
  }
  if (iqDecimation < 1 || iqDecimation > 64) {
    fail("the I/Q decimation " + std::to_string(iqDecimation) + " is outside [1, 64]");
  }
  const double bandwidthHz = iqBandwidthFor(acq) * acq.centerFrequencyHz;
  if (!(bandwidthHz < acq.samplingFrequencyHz)) {
    fail("the I/Q bandwidth " + mhz(bandwidthHz) +
         " must stay below fs = " + mhz(acq.samplingFrequencyHz));
  }
  if (!(bandwidthHz <= acq.samplingFrequencyHz / iqDecimation)) {
    fail("the I/Q decimation " + std::to_string(iqDecimation) + " leaves a rate of " +
         mhz(acq.samplingFrequencyHz / iqDecimation) + ", below the I/Q bandwidth " +
         mhz(bandwidthHz));
  }
  if (acq.samples / iqDecimation < 2) {
    fail("the I/Q decimation " + std::to_string(iqDecimation) + " leaves fewer than 2 of the " +
         std::to_string(acq.samples) + " samples");
  }
  // Mixing moves the RF's negative band to -2 f0, which the sampling aliases into
  // [-fs/2, fs/2]; it must stay out of the low-pass band [-B/2, B/2], or it adds to the signal.
  const double image = std::abs(std::remainder(2 * acq.centerFrequencyHz, acq.samplingFrequencyHz));
  if (image < bandwidthHz) {
    fail("at fs = " + mhz(acq.samplingFrequencyHz) + " the image of the negative band lies " +
         mhz(image) + " from the carrier, inside the I/Q bandwidth " + mhz(bandwidthHz) +
         ": narrow the bandwidth below " + mhz(image) + " (" +
         percent(image / acq.centerFrequencyHz) + " of f0)");
  }
}

}  // namespace cineflow::ultrasound

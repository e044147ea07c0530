#include "ultrasound/fir_design.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace cineflow::ultrasound {
namespace {

double sinc(double x) {
  return x == 0.0 ? 1.0 : std::sin(std::numbers::pi * x) / (std::numbers::pi * x);
}

// The Hamming window's tap n of `taps`.
double hamming(int n, int taps) {
  return 0.54 - 0.46 * std::cos(2 * std::numbers::pi * n / (taps - 1));
}

}  // namespace

std::vector<float> designBandpassTaps(int taps, double lowHz, double highHz, double fsHz) {
  if (taps < 3 || taps % 2 == 0) {
    throw std::invalid_argument("bandpass: tap count " + std::to_string(taps) +
                                " must be odd and >= 3");
  }
  if (!(fsHz > 0) || !std::isfinite(fsHz)) {
    throw std::invalid_argument("bandpass: sampling frequency must be > 0 Hz");
  }
  const double high = std::min(highHz, 0.98 * fsHz / 2);
  if (!(lowHz >= 0 && lowHz < high)) {
    throw std::invalid_argument(
        "bandpass: band [" + std::to_string(lowHz) + ", " + std::to_string(highHz) +
        "] Hz must satisfy 0 <= low < high (high " +
        "clamped to 0.98 * fs/2 = " + std::to_string(0.98 * fsHz / 2) + " Hz)");
  }
  const double low = lowHz / fsHz;  // cycles per sample
  const double highRel = high / fsHz;
  const double centre = (low + highRel) / 2;
  const int half = (taps - 1) / 2;
  std::vector<double> h(static_cast<std::size_t>(taps));
  double centreGain = 0;  // the filter is symmetric, so its response at the centre is real
  for (int n = 0; n < taps; ++n) {
    const double m = n - half;
    const double ideal = 2 * highRel * sinc(2 * highRel * m) - 2 * low * sinc(2 * low * m);
    h[static_cast<std::size_t>(n)] = ideal * hamming(n, taps);
    centreGain += h[static_cast<std::size_t>(n)] * std::cos(2 * std::numbers::pi * centre * m);
  }
  std::vector<float> result(h.size());
  std::transform(h.begin(), h.end(), result.begin(),
                 [&](double v) { return static_cast<float>(v / std::abs(centreGain)); });
  return result;
}

std::vector<float> designLowpassTaps(int taps, double cutoffHz, double fsHz) {
  if (taps < 3 || taps % 2 == 0) {
    throw std::invalid_argument("demodulate: low-pass length " + std::to_string(taps) +
                                " must be odd and >= 3");
  }
  if (!(fsHz > 0) || !std::isfinite(fsHz) || !(cutoffHz > 0) || !(cutoffHz < fsHz / 2)) {
    throw std::invalid_argument("demodulate: low-pass cut-off " + std::to_string(cutoffHz) +
                                " Hz must lie within (0, fs/2 = " + std::to_string(fsHz / 2) +
                                " Hz)");
  }
  const double cutoff = cutoffHz / fsHz;  // cycles per sample
  const int half = (taps - 1) / 2;
  std::vector<double> h(static_cast<std::size_t>(taps));
  double gain = 0;
  for (int n = 0; n < taps; ++n) {
    h[static_cast<std::size_t>(n)] = 2 * cutoff * sinc(2 * cutoff * (n - half)) * hamming(n, taps);
    gain += h[static_cast<std::size_t>(n)];
  }
  std::vector<float> result(h.size());
  std::transform(h.begin(), h.end(), result.begin(),
                 [gain](double v) { return static_cast<float>(v / gain); });
  return result;
}

PolyphaseFir splitPolyphase(const std::vector<float>& h, int factor) {
  if (factor < 1 || h.size() % 2 == 0) {
    throw std::invalid_argument("polyphase split: needs an odd-length filter and a factor >= 1");
  }
  const int length = static_cast<int>(h.size());
  const int half = (length - 1) / 2;
  PolyphaseFir fir;
  fir.factor = factor;
  fir.perPhase = (length + factor - 1) / factor;
  fir.taps.assign(static_cast<std::size_t>(factor * fir.perPhase), 0.0f);
  fir.offsets.resize(static_cast<std::size_t>(factor));
  for (int p = 0; p < factor; ++p) {
    // Output m = n factor + p meets the zero-stuffed input at m + k - half: only the taps k with
    // (p + k - half) divisible by factor see a sample, the first of them is k0.
    const int k0 = ((half - p) % factor + factor) % factor;
    fir.offsets[static_cast<std::size_t>(p)] = (p + k0 - half) / factor;
    for (int k = k0, i = 0; k < length; k += factor, ++i) {
      fir.taps[static_cast<std::size_t>(p * fir.perPhase + i)] = h[static_cast<std::size_t>(k)];
    }
  }
  return fir;
}

int lowpassTapsFor(double cutoffHz, double fsHz) {
  const double periods = 4.0 * fsHz / cutoffHz;
  const int taps = static_cast<int>(std::clamp(std::round(periods), 15.0, 255.0));
  return taps % 2 == 1 ? taps : taps + 1;
}

}  // namespace cineflow::ultrasound

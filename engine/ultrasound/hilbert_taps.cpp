#include "ultrasound/hilbert_taps.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace cineflow::ultrasound {

HilbertTaps hilbertTaps(std::size_t n) {
  if (n == 0) {
    throw std::invalid_argument("envelope: the Hilbert kernel needs at least one row");
  }
  const auto length = static_cast<double>(n);
  const auto half = static_cast<double>((n - 1) / 2);
  HilbertTaps taps;
  for (std::size_t m = 1; m < n; ++m) {
    const double t = 2 * std::numbers::pi * static_cast<double>(m) / length;
    const double h =
        2 / length * std::sin(half * t / 2) * std::sin((half + 1) * t / 2) / std::sin(t / 2);
    // The vanishing taps (even m for even n) come out as rounding noise near 1e-17.
    if (std::abs(h) > 1e-9 / length) {
      taps.offsets.push_back(static_cast<int>(m));
      taps.weights.push_back(static_cast<float>(h));
    }
  }
  return taps;
}

}  // namespace cineflow::ultrasound

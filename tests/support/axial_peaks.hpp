#pragma once
// Axial point-spread functions in OCT images (the tests' measures of where a reflector is and how
// sharp it is), shared by the chain and dispersion tests.

#include <vector>

namespace cineflow::test {

// The column x of a [z][x] dB image, as amplitude (dB -> linear).
std::vector<double> amplitudeColumn(const std::vector<float>& db, int nx, int x);
// The peak near `pixel` (+- `reach`), refined by a parabola through the log amplitudes of the
// highest sample and its two neighbours (exact for a Gaussian peak).
double peakNear(const std::vector<double>& column, double pixel, int reach);
// Width of the peak at `peak` where the amplitude falls to half (-6 dB), in pixels, crossings
// interpolated linearly.
double widthAtHalf(const std::vector<double>& column, int peak);

}  // namespace cineflow::test

#pragma once
// Random point phantoms synthesised straight from the delay convention of docs/ultrasound.md,
// independently of the engine's simulator: the echo of a point (x, z) on element x_e for a plane
// wave at angle a is a Gaussian-windowed cosine at f0 centred on
//   tau = (z cos a + x sin a + sqrt((x - x_e)^2 + z^2)) / c,   sample n taken at t0 + n / fs.
// A beamformer that follows the convention images each point exactly at (x, z), up to its own
// interpolation: the tests' oracle for sub-pixel accuracy.

#include <array>
#include <cstdint>
#include <vector>

#include "acquire/frame.hpp"

namespace cineflow::test {

struct PointPhantom {
  acquire::AcquisitionParams acq;  // fractionalBandwidth: the pulse's, or 0 when not recorded
  std::vector<float> rf;           // one frame [transmits][elements][samples]
  // (x, z) in metres, isolated: at least 5 mm and 20 wavelengths apart, so that one point's side
  // lobes (high with a single plane wave) do not move another's peak.
  std::vector<std::array<double, 2>> points;
};

// A phantom drawn from `seed`: f0 in [3, 8] MHz sampled at 3.5-5 samples per period, a pulse of
// 40-90 % fractional bandwidth, c in [1450, 1600] m/s, 64-128 elements at lambda/2 to lambda
// pitch, 1-5 transmits within +-15 degrees, t0 within +-2 us, `pointCount` points over the
// middle half of the array's width and z 8-40 mm, and white noise 40 dB below the echoes. (Near
// the array's edges the receive aperture is cut on one side, which moves a point's image towards
// the array's centre: a property of the aperture, not of the delays.) `recordBandwidth` false
// leaves acq.fractionalBandwidth 0, as recordings that do not state it.
PointPhantom makePointPhantom(std::uint64_t seed, int pointCount, bool recordBandwidth);

}  // namespace cineflow::test

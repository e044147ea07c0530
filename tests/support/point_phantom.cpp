#include "support/point_phantom.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "support/test_random.hpp"

namespace cineflow::test {

PointPhantom makePointPhantom(std::uint64_t seed, int pointCount, bool recordBandwidth) {
  SeededRandom random(seed);
  PointPhantom phantom;
  acquire::AcquisitionParams& acq = phantom.acq;
  const double f0 = random.uniform(3e6, 8e6);
  acq.centerFrequencyHz = f0;
  acq.samplingFrequencyHz = f0 * random.uniform(3.5, 5.0);
  acq.soundSpeedMPerS = random.uniform(1450, 1600);
  acq.t0S = random.uniform(-2e-6, 2e-6);
  const double bandwidth = random.uniform(0.4, 0.9);
  acq.fractionalBandwidth = recordBandwidth ? bandwidth : 0.0;
  const double lambda = acq.soundSpeedMPerS / f0;
  const auto elements = static_cast<int>(random.integer(64, 128));
  const double pitch = lambda * random.uniform(0.5, 1.0);
  for (int e = 0; e < elements; ++e) {
    acq.elementXM.push_back((e - (elements - 1) / 2.0) * pitch);
  }
  const auto transmits = static_cast<int>(random.integer(1, 5));
  const double maxAngle = transmits == 1 ? 0.0 : random.uniform(0.05, 15 * std::numbers::pi / 180);
  for (int t = 0; t < transmits; ++t) {
    acq.anglesRad.push_back(transmits == 1 ? 0.0 : -maxAngle + 2 * maxAngle * t / (transmits - 1));
  }
  // Deep enough for the deepest point's echo on the outermost element and steepest wave.
  const double halfArray = acq.elementXM.back();
  const double deepest =
      (40e-3 + halfArray * std::sin(maxAngle) + std::hypot(2 * halfArray, 40e-3)) /
      acq.soundSpeedMPerS;
  acq.samples = static_cast<int>(std::ceil((deepest + 3e-6 - acq.t0S) * acq.samplingFrequencyHz));

  while (static_cast<int>(phantom.points.size()) < pointCount) {
    const std::array<double, 2> p{random.uniform(-halfArray / 2, halfArray / 2),
                                  random.uniform(8e-3, 40e-3)};
    bool apart = true;
    for (const auto& q : phantom.points) {
      apart = apart && std::hypot(p[0] - q[0], p[1] - q[1]) >= std::max(5e-3, 20 * lambda);
    }
    if (apart) {
      phantom.points.push_back(p);
    }
  }

  // A Gaussian envelope whose amplitude spectrum falls by 6 dB at f0 (1 -+ bandwidth / 2).
  const double sigmaF = bandwidth * f0 / 2 / std::sqrt(2 * std::log(2.0));
  const double sigmaT = 1 / (2 * std::numbers::pi * sigmaF);
  const auto samples = static_cast<std::size_t>(acq.samples);
  phantom.rf.assign(static_cast<std::size_t>(transmits * elements) * samples, 0.0f);
  for (int t = 0; t < transmits; ++t) {
    const double a = acq.anglesRad[static_cast<std::size_t>(t)];
    for (int e = 0; e < elements; ++e) {
      float* row = phantom.rf.data() + static_cast<std::size_t>(t * elements + e) * samples;
      const double xe = acq.elementXM[static_cast<std::size_t>(e)];
      for (const auto& [x, z] : phantom.points) {
        const double tau =
            (z * std::cos(a) + x * std::sin(a) + std::hypot(x - xe, z)) / acq.soundSpeedMPerS;
        const double centre = (tau - acq.t0S) * acq.samplingFrequencyHz;
        const double reach = 5 * sigmaT * acq.samplingFrequencyHz;
        const auto first = static_cast<std::ptrdiff_t>(std::max(0.0, std::floor(centre - reach)));
        const auto last = static_cast<std::ptrdiff_t>(
            std::min(static_cast<double>(samples) - 1, std::ceil(centre + reach)));
        for (std::ptrdiff_t n = first; n <= last; ++n) {
          const double dt = (static_cast<double>(n) - centre) / acq.samplingFrequencyHz;
          row[n] +=
              static_cast<float>(1000 * z / 10e-3 * std::exp(-dt * dt / (2 * sigmaT * sigmaT)) *
                                 std::cos(2 * std::numbers::pi * f0 * dt));
        }
      }
    }
  }
  for (float& v : phantom.rf) {
    v += static_cast<float>(random.uniform(-17.3, 17.3));  // rms 10: 40 dB below 1000
  }
  return phantom;
}

}  // namespace cineflow::test

#pragma once
// Sample positions in float that stay exact in traces of any length, for the float delay-and-sum
// kernels (the CPU's, ultrasound/cpu/das_geometry.hpp, and CUDA's split-float variant). The
// position s = (z cos a + x sin a + sqrt((x - xe)^2 + z^2)) rate / c - t0 rate is taken as
//   s = base + (excess + x sin a rate / c + offset),
// base = floor(T) and offset = T - base for T = z (cos a + 1) rate / c - t0 rate (in double, once
// per image row and transmit), and excess = (sqrt((x - xe)^2 + z^2) - z) rate / c
// = (x - xe)^2 / (sqrt(...) + z) rate / c. The bracket stays within a few hundred samples
// whatever the trace length, so in float it carries an error near 1e-5 samples, where the whole
// position in float would carry 1e-4 in long traces.

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace cineflow::ultrasound {

struct TransmitSplit {
  std::int32_t base;
  float offset;
  float low, high;  // -base and (samples - 1) - base: the bracket's range inside the trace
};

// `cosSamples` = cos(a) rate / c, `firstSample` = t0 rate, for traces of `samples` samples.
inline TransmitSplit transmitSplit(double z, double cosSamples, double samplesPerMetre,
                                   double firstSample, std::size_t samples) {
  const double whole = z * (cosSamples + samplesPerMetre) - firstSample;
  const double base = std::floor(whole);
  return {static_cast<std::int32_t>(base), static_cast<float>(whole - base),
          static_cast<float>(-base), static_cast<float>(static_cast<double>(samples - 1) - base)};
}

}  // namespace cineflow::ultrasound

#pragma once
// Portable random numbers for the simulator. The standard distributions (uniform_real,
// normal) are implementation-defined, so the same seed would give different phantoms with
// libstdc++ and libc++; these helpers use only std::mt19937_64, whose output the standard fixes.

#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>

namespace cineflow::acquire::detail {

// Uniform in [0, 1) with 53 random bits.
inline double uniform01(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

inline double uniform(std::mt19937_64& rng, double lo, double hi) {
  return lo + (hi - lo) * uniform01(rng);
}

// Standard normal by Box-Muller; each call consumes two uniforms and returns one value, which
// keeps the stream position independent of any cached state.
inline double standardNormal(std::mt19937_64& rng) {
  const double u1 = 1.0 - uniform01(rng);  // (0, 1]: log stays finite
  const double u2 = uniform01(rng);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

// Decorrelates seeds derived from small integers (seed, frame, transmit, ...): splitmix64.
inline std::uint64_t mixSeed(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace cineflow::acquire::detail

#pragma once
// Seeded random test inputs (house style rule 9 (docs/development.md): tests draw seeded random
// inputs, never only zeros). The mapping from std::mt19937_64 output to values is written out here
// rather than left to std::uniform_*_distribution, whose results differ between standard libraries;
// so a seed names the same input everywhere.

#include <cstddef>
#include <cstdint>
#include <random>
#include <span>
#include <vector>

namespace cineflow::test {

class SeededRandom {
 public:
  explicit SeededRandom(std::uint64_t seed) : engine_(seed) {}
  // Uniform in [lo, hi).
  double uniform(double lo, double hi) {
    const double unit = static_cast<double>(engine_() >> 11) * 0x1.0p-53;
    return lo + (hi - lo) * unit;
  }
  // Uniform integer in [lo, hi] (hi - lo far below 2^64, so the modulo bias is negligible).
  std::int64_t integer(std::int64_t lo, std::int64_t hi) {
    const auto span = static_cast<std::uint64_t>(hi - lo) + 1;
    return lo + static_cast<std::int64_t>(engine_() % span);
  }

 private:
  std::mt19937_64 engine_;
};

inline void fillUniform(std::span<float> values, std::uint64_t seed, double lo = -1.0,
                        double hi = 1.0) {
  SeededRandom random(seed);
  for (float& v : values) {
    v = static_cast<float>(random.uniform(lo, hi));
  }
}

inline void fillUniform(std::span<std::int16_t> values, std::uint64_t seed, std::int16_t lo = -2048,
                        std::int16_t hi = 2047) {
  SeededRandom random(seed);
  for (std::int16_t& v : values) {
    v = static_cast<std::int16_t>(random.integer(lo, hi));
  }
}

inline std::vector<float> randomFloats(std::size_t count, std::uint64_t seed, double lo = -1.0,
                                       double hi = 1.0) {
  std::vector<float> values(count);
  fillUniform(std::span<float>(values), seed, lo, hi);
  return values;
}

inline std::vector<std::int16_t> randomInt16(std::size_t count, std::uint64_t seed,
                                             std::int16_t lo = -2048, std::int16_t hi = 2047) {
  std::vector<std::int16_t> values(count);
  fillUniform(std::span<std::int16_t>(values), seed, lo, hi);
  return values;
}

}  // namespace cineflow::test

#include "ultrasound/doppler_math.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace cineflow::process {

std::vector<float> regressionBasis(int n, int order) {
  if (order < 0) {
    return {};
  }
  if (order > kMaxRegressionOrder) {
    throw std::invalid_argument("clutter filter: regression order " + std::to_string(order) +
                                " (at most " + std::to_string(kMaxRegressionOrder) + ")");
  }
  if (n <= order + 1) {
    throw std::invalid_argument("clutter filter: an ensemble of " + std::to_string(n) +
                                " frames leaves nothing after a regression of order " +
                                std::to_string(order));
  }
  const auto size = static_cast<std::size_t>(n);
  std::vector<double> rows(static_cast<std::size_t>(order + 1) * size);
  for (int p = 0; p <= order; ++p) {
    double* row = rows.data() + static_cast<std::size_t>(p) * size;
    // The slow time centred and scaled to [-1, 1], so that n^3 stays well conditioned.
    for (std::size_t k = 0; k < size; ++k) {
      const double t = n > 1 ? 2.0 * static_cast<double>(k) / (n - 1) - 1.0 : 0.0;
      row[k] = std::pow(t, p);
    }
    // Modified Gram-Schmidt against the rows before, twice for accuracy.
    for (int pass = 0; pass < 2; ++pass) {
      for (int q = 0; q < p; ++q) {
        const double* prev = rows.data() + static_cast<std::size_t>(q) * size;
        double dot = 0;
        for (std::size_t k = 0; k < size; ++k) {
          dot += row[k] * prev[k];
        }
        for (std::size_t k = 0; k < size; ++k) {
          row[k] -= dot * prev[k];
        }
      }
    }
    double norm = 0;
    for (std::size_t k = 0; k < size; ++k) {
      norm += row[k] * row[k];
    }
    norm = std::sqrt(norm);
    for (std::size_t k = 0; k < size; ++k) {
      row[k] /= norm;
    }
  }
  return std::vector<float>(rows.begin(), rows.end());
}

IirHighPass butterworthHighPass(double cutoff) {
  if (!(cutoff > 0 && cutoff < 0.5)) {
    throw std::invalid_argument("IIR high-pass: cut-off " + std::to_string(cutoff) +
                                " x the sampling rate is outside (0, 0.5)");
  }
  // H(s) = s^2 / (s^2 + sqrt2 s + 1) at s = (1 / K) (1 - z^-1) / (1 + z^-1), K = tan(pi fc).
  const double k = std::tan(std::numbers::pi * cutoff);
  const double norm = 1.0 / (1.0 + std::numbers::sqrt2 * k + k * k);
  IirHighPass f;
  f.b0 = static_cast<float>(norm);
  f.b1 = static_cast<float>(-2.0 * norm);
  f.b2 = static_cast<float>(norm);
  f.a1 = static_cast<float>(2.0 * (k * k - 1.0) * norm);
  f.a2 = static_cast<float>((1.0 - std::numbers::sqrt2 * k + k * k) * norm);
  return f;
}

}  // namespace cineflow::process

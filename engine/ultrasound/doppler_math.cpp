#include "ultrasound/doppler_math.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace cineflow::ultrasound {

namespace {

// Orthonormalises `rows` rows of length n in place (modified Gram-Schmidt, twice for accuracy).
void orthonormalise(std::vector<double>& rows, int count, std::size_t n) {
  for (int p = 0; p < count; ++p) {
    double* row = rows.data() + static_cast<std::size_t>(p) * n;
    for (int pass = 0; pass < 2; ++pass) {
      for (int q = 0; q < p; ++q) {
        const double* prev = rows.data() + static_cast<std::size_t>(q) * n;
        double dot = 0;
        for (std::size_t k = 0; k < n; ++k) {
          dot += row[k] * prev[k];
        }
        for (std::size_t k = 0; k < n; ++k) {
          row[k] -= dot * prev[k];
        }
      }
    }
    double norm = 0;
    for (std::size_t k = 0; k < n; ++k) {
      norm += row[k] * row[k];
    }
    norm = std::sqrt(norm);
    for (std::size_t k = 0; k < n; ++k) {
      row[k] /= norm;
    }
  }
}

}  // namespace

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
    // The slow time centred and scaled to [-1, 1], so that n^3 stays well conditioned.
    for (std::size_t k = 0; k < size; ++k) {
      const double t = n > 1 ? 2.0 * static_cast<double>(k) / (n - 1) - 1.0 : 0.0;
      rows[static_cast<std::size_t>(p) * size + k] = std::pow(t, p);
    }
  }
  orthonormalise(rows, order + 1, size);
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

std::vector<float> iirFreeResponseBasis(const IirHighPass& f, int n) {
  if (n <= kIirStates) {
    throw std::invalid_argument("IIR clutter filter: an ensemble of " + std::to_string(n) +
                                " frames leaves nothing after its " + std::to_string(kIirStates) +
                                " initial states");
  }
  const auto size = static_cast<std::size_t>(n);
  std::vector<double> rows(kIirStates * size);
  for (int state = 0; state < kIirStates; ++state) {
    // The direct form II transposed with no input: y = s1; s1 <- s2 - a1 y; s2 <- -a2 y.
    double s1 = state == 0 ? 1.0 : 0.0;
    double s2 = state == 1 ? 1.0 : 0.0;
    for (std::size_t k = 0; k < size; ++k) {
      const double y = s1;
      s1 = -static_cast<double>(f.a1) * y + s2;
      s2 = -static_cast<double>(f.a2) * y;
      rows[static_cast<std::size_t>(state) * size + k] = y;
    }
  }
  orthonormalise(rows, kIirStates, size);
  return std::vector<float>(rows.begin(), rows.end());
}

}  // namespace cineflow::ultrasound

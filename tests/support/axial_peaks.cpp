#include "support/axial_peaks.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace cineflow::test {

std::vector<double> amplitudeColumn(const std::vector<float>& db, int nx, int x) {
  std::vector<double> column(db.size() / static_cast<std::size_t>(nx));
  for (std::size_t z = 0; z < column.size(); ++z) {
    column[z] =
        std::pow(10.0, db[z * static_cast<std::size_t>(nx) + static_cast<std::size_t>(x)] / 20.0);
  }
  return column;
}

double peakNear(const std::vector<double>& column, double pixel, int reach) {
  const int centre = static_cast<int>(std::lround(pixel));
  int best = std::clamp(centre - reach, 1, static_cast<int>(column.size()) - 2);
  for (int z = best; z <= std::min(centre + reach, static_cast<int>(column.size()) - 2); ++z) {
    if (column[static_cast<std::size_t>(z)] > column[static_cast<std::size_t>(best)]) {
      best = z;
    }
  }
  const double a = std::log(column[static_cast<std::size_t>(best - 1)]);
  const double b = std::log(column[static_cast<std::size_t>(best)]);
  const double c = std::log(column[static_cast<std::size_t>(best + 1)]);
  const double denominator = a - 2 * b + c;
  return best + (denominator < 0 ? std::clamp(0.5 * (a - c) / denominator, -0.5, 0.5) : 0.0);
}

double widthAtHalf(const std::vector<double>& column, int peak) {
  const double half = 0.5 * column[static_cast<std::size_t>(peak)];
  const auto crossing = [&](int step) {
    int z = peak;
    while (z + step >= 0 && z + step < static_cast<int>(column.size()) &&
           column[static_cast<std::size_t>(z + step)] > half) {
      z += step;
    }
    const double inside = column[static_cast<std::size_t>(z)];
    const double outside = column[static_cast<std::size_t>(z + step)];
    return z + step * (inside - half) / (inside - outside);
  };
  return crossing(1) - crossing(-1);
}

}  // namespace cineflow::test

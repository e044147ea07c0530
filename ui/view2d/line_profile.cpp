#include "view2d/line_profile.hpp"

#include <algorithm>
#include <cmath>

namespace cineflow::ui {
namespace {

// Bilinear value at fractional pixel (column, row), both inside [0, n - 1].
double bilinear(std::span<const float> pixels, int nx, int nz, double column, double row) {
  const int c0 = std::clamp(static_cast<int>(std::floor(column)), 0, nx - 1);
  const int r0 = std::clamp(static_cast<int>(std::floor(row)), 0, nz - 1);
  const int c1 = std::min(c0 + 1, nx - 1);
  const int r1 = std::min(r0 + 1, nz - 1);
  const double fc = column - c0;
  const double fr = row - r0;
  const auto at = [&](int r, int c) {
    return static_cast<double>(pixels[static_cast<std::size_t>(r) * nx + c]);
  };
  return (1 - fr) * ((1 - fc) * at(r0, c0) + fc * at(r0, c1)) +
         fr * ((1 - fc) * at(r1, c0) + fc * at(r1, c1));
}

// Where the straight line through (x0, y0) and (x1, y1) reaches `level`.
double crossing(double x0, double y0, double x1, double y1, double level) {
  return y1 == y0 ? x0 : x0 + (level - y0) * (x1 - x0) / (y1 - y0);
}

}  // namespace

std::optional<double> widthBelowPeak(std::span<const double> distance, std::span<const double> db,
                                     std::size_t peak, double dropDb) {
  if (peak >= db.size() || distance.size() != db.size()) {
    return std::nullopt;
  }
  const double level = db[peak] - dropDb;
  std::optional<double> left, right;
  for (std::size_t i = peak; i > 0; --i) {
    if (db[i - 1] <= level) {
      left = crossing(distance[i], db[i], distance[i - 1], db[i - 1], level);
      break;
    }
  }
  for (std::size_t i = peak; i + 1 < db.size(); ++i) {
    if (db[i + 1] <= level) {
      right = crossing(distance[i], db[i], distance[i + 1], db[i + 1], level);
      break;
    }
  }
  if (!left || !right) {
    return std::nullopt;
  }
  return *right - *left;
}

LineProfile sampleLine(std::span<const float> pixels, const process::ImageGeometry& geometry,
                       PhysicalPoint from, PhysicalPoint to, std::span<const float> velocity) {
  LineProfile profile;
  profile.from = from;
  profile.to = to;
  if (geometry.nx < 1 || geometry.nz < 1 || pixels.size() != geometry.pixels()) {
    return profile;
  }
  const double length = std::hypot(to.xM - from.xM, to.zM - from.zM);
  const double step = 0.5 * std::min(geometry.dx, geometry.dz);
  const auto samples = static_cast<std::size_t>(std::floor(length / step)) + 1;
  for (std::size_t i = 0; i < samples; ++i) {
    const double t = samples > 1 ? static_cast<double>(i) / static_cast<double>(samples - 1) : 0;
    const double column = (from.xM + t * (to.xM - from.xM) - geometry.x0) / geometry.dx;
    const double row = (from.zM + t * (to.zM - from.zM) - geometry.z0) / geometry.dz;
    if (column < 0 || row < 0 || column > geometry.nx - 1 || row > geometry.nz - 1) {
      continue;
    }
    profile.distanceM.push_back(t * length);
    profile.db.push_back(bilinear(pixels, geometry.nx, geometry.nz, column, row));
    if (velocity.size() == geometry.pixels()) {
      const auto nearest = static_cast<std::size_t>(std::lround(row)) * geometry.nx +
                           static_cast<std::size_t>(std::lround(column));
      profile.velocity.push_back(velocity[nearest]);
    }
  }
  if (!profile.velocity.empty()) {
    profile.aliasingVelocity = geometry.aliasingVelocity;
  }
  if (profile.db.empty()) {
    return profile;
  }
  const auto peak = static_cast<std::size_t>(
      std::max_element(profile.db.begin(), profile.db.end()) - profile.db.begin());
  profile.peakDb = profile.db[peak];
  profile.peakDistanceM = profile.distanceM[peak];
  profile.widthM = widthBelowPeak(profile.distanceM, profile.db, peak);
  return profile;
}

}  // namespace cineflow::ui

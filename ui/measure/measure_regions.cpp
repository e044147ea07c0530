#include "measure/measure_regions.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace cineflow::ui {

double distanceM(PhysicalPoint a, PhysicalPoint b) {
  return std::hypot(b.xM - a.xM, b.zM - a.zM);
}

Region Region::ellipse(PhysicalPoint centre, double semiXM, double semiZM) {
  Region region;
  region.shape = Shape::Ellipse;
  region.centre = centre;
  region.semiXM = std::abs(semiXM);
  region.semiZM = std::abs(semiZM);
  return region;
}

Region Region::ellipseInBox(PhysicalPoint a, PhysicalPoint b) {
  return ellipse({0.5 * (a.xM + b.xM), 0.5 * (a.zM + b.zM)}, 0.5 * (b.xM - a.xM),
                 0.5 * (b.zM - a.zM));
}

Region Region::polygon(std::vector<PhysicalPoint> vertices) {
  Region region;
  region.shape = Shape::Polygon;
  region.vertices = std::move(vertices);
  return region;
}

bool Region::empty() const {
  return shape == Shape::Ellipse ? !(semiXM > 0 && semiZM > 0) : vertices.size() < 3;
}

bool Region::contains(PhysicalPoint p) const {
  if (empty()) {
    return false;
  }
  if (shape == Shape::Ellipse) {
    const double u = (p.xM - centre.xM) / semiXM;
    const double v = (p.zM - centre.zM) / semiZM;
    return u * u + v * v <= 1.0;
  }
  // Even-odd rule: count the edges a ray towards +x crosses.
  bool inside = false;
  for (std::size_t i = 0, j = vertices.size() - 1; i < vertices.size(); j = i++) {
    const PhysicalPoint& a = vertices[i];
    const PhysicalPoint& b = vertices[j];
    if ((a.zM > p.zM) != (b.zM > p.zM) &&
        p.xM < a.xM + (p.zM - a.zM) * (b.xM - a.xM) / (b.zM - a.zM)) {
      inside = !inside;
    }
  }
  return inside;
}

double Region::areaM2() const {
  if (empty()) {
    return 0.0;
  }
  if (shape == Shape::Ellipse) {
    return std::numbers::pi * semiXM * semiZM;
  }
  double twice = 0.0;  // the shoelace formula
  for (std::size_t i = 0, j = vertices.size() - 1; i < vertices.size(); j = i++) {
    twice += vertices[j].xM * vertices[i].zM - vertices[i].xM * vertices[j].zM;
  }
  return 0.5 * std::abs(twice);
}

double Region::perimeterM() const {
  if (shape == Shape::Ellipse) {
    const double a = semiXM, b = semiZM;
    if (a + b <= 0) {
      return 0.0;
    }
    const double h = (a - b) * (a - b) / ((a + b) * (a + b));
    return std::numbers::pi * (a + b) * (1.0 + 3.0 * h / (10.0 + std::sqrt(4.0 - 3.0 * h)));
  }
  if (vertices.size() < 2) {
    return 0.0;
  }
  double length = 0.0;
  for (std::size_t i = 0, j = vertices.size() - 1; i < vertices.size(); j = i++) {
    length += distanceM(vertices[j], vertices[i]);
  }
  return length;
}

std::vector<float> regionValues(std::span<const float> pixels,
                                const process::ImageGeometry& geometry, const Region& region) {
  std::vector<float> values;
  if (region.empty() || pixels.size() != geometry.pixels() || geometry.dx <= 0 ||
      geometry.dz <= 0) {
    return values;
  }
  // Only the pixels of the region's bounding box are tested.
  double xMin = region.centre.xM - region.semiXM, xMax = region.centre.xM + region.semiXM;
  double zMin = region.centre.zM - region.semiZM, zMax = region.centre.zM + region.semiZM;
  if (region.shape == Region::Shape::Polygon) {
    xMin = zMin = INFINITY;
    xMax = zMax = -INFINITY;
    for (const PhysicalPoint& v : region.vertices) {
      xMin = std::min(xMin, v.xM);
      xMax = std::max(xMax, v.xM);
      zMin = std::min(zMin, v.zM);
      zMax = std::max(zMax, v.zM);
    }
  }
  const auto first = [](double lo, double origin, double step, int n) {
    return std::clamp(static_cast<int>(std::ceil((lo - origin) / step)), 0, n);
  };
  const auto last = [](double hi, double origin, double step, int n) {
    return std::clamp(static_cast<int>(std::floor((hi - origin) / step)), -1, n - 1);
  };
  const int i0 = first(xMin, geometry.x0, geometry.dx, geometry.nx);
  const int i1 = last(xMax, geometry.x0, geometry.dx, geometry.nx);
  const int k0 = first(zMin, geometry.z0, geometry.dz, geometry.nz);
  const int k1 = last(zMax, geometry.z0, geometry.dz, geometry.nz);
  for (int k = k0; k <= k1; ++k) {
    for (int i = i0; i <= i1; ++i) {
      const float v = pixels[static_cast<std::size_t>(k) * static_cast<std::size_t>(geometry.nx) +
                             static_cast<std::size_t>(i)];
      if (!std::isnan(v) &&
          region.contains({geometry.x0 + i * geometry.dx, geometry.z0 + k * geometry.dz})) {
        values.push_back(v);
      }
    }
  }
  return values;
}

RegionStats statsOf(std::span<const float> valuesDb) {
  RegionStats stats;
  stats.pixels = valuesDb.size();
  if (valuesDb.empty()) {
    return stats;
  }
  double sumDb = 0, sumAmplitude = 0;
  for (const float v : valuesDb) {
    sumDb += v;
    sumAmplitude += std::pow(10.0, v / 20.0);
  }
  const auto n = static_cast<double>(valuesDb.size());
  stats.meanDb = sumDb / n;
  stats.meanAmplitude = sumAmplitude / n;
  double squaresDb = 0, squaresAmplitude = 0;
  for (const float v : valuesDb) {
    squaresDb += (v - stats.meanDb) * (v - stats.meanDb);
    const double a = std::pow(10.0, v / 20.0) - stats.meanAmplitude;
    squaresAmplitude += a * a;
  }
  stats.stdDb = std::sqrt(squaresDb / n);
  stats.stdAmplitude = std::sqrt(squaresAmplitude / n);
  return stats;
}

double generalisedCnr(std::span<const float> targetDb, std::span<const float> backgroundDb,
                      int bins) {
  if (targetDb.empty() || backgroundDb.empty()) {
    return 0.0;
  }
  const auto [tMin, tMax] = std::minmax_element(targetDb.begin(), targetDb.end());
  const auto [bMin, bMax] = std::minmax_element(backgroundDb.begin(), backgroundDb.end());
  const double lo = std::min(*tMin, *bMin);
  const double hi = std::max(*tMax, *bMax);
  if (!(hi > lo)) {
    return 0.0;  // every value the same: identical distributions
  }
  if (bins <= 0) {
    const auto smaller = static_cast<double>(std::min(targetDb.size(), backgroundDb.size()));
    bins = std::clamp(static_cast<int>(std::lround(std::sqrt(smaller))), 16, 256);
  }
  std::vector<double> target(static_cast<std::size_t>(bins)), background(target.size());
  const auto fill = [&](std::span<const float> values, std::vector<double>& histogram) {
    const double weight = 1.0 / static_cast<double>(values.size());
    for (const float v : values) {
      const auto bin = std::min(bins - 1, static_cast<int>((v - lo) / (hi - lo) * bins));
      histogram[static_cast<std::size_t>(bin)] += weight;
    }
  };
  fill(targetDb, target);
  fill(backgroundDb, background);
  double overlap = 0;
  for (std::size_t b = 0; b < target.size(); ++b) {
    overlap += std::min(target[b], background[b]);
  }
  return std::clamp(1.0 - overlap, 0.0, 1.0);
}

ContrastResult contrastOf(std::span<const float> pixels, const process::ImageGeometry& geometry,
                          const Region& target, const Region& background) {
  ContrastResult result;
  const std::vector<float> t = regionValues(pixels, geometry, target);
  const std::vector<float> b = regionValues(pixels, geometry, background);
  if (t.empty() || b.empty()) {
    return result;
  }
  result.target = statsOf(t);
  result.background = statsOf(b);
  result.contrastDb =
      20.0 * std::log10(result.target.meanAmplitude / result.background.meanAmplitude);
  const double spread = std::hypot(result.target.stdAmplitude, result.background.stdAmplitude);
  result.cnr =
      spread > 0 ? std::abs(result.target.meanAmplitude - result.background.meanAmplitude) / spread
                 : 0.0;
  result.gcnr = generalisedCnr(t, b);
  return result;
}

}  // namespace cineflow::ui

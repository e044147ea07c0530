#include "ultrasound/phantom.hpp"

#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>
#include <string>

#include "acquire/random.hpp"

namespace cineflow::ultrasound {

namespace {

void requireFinite(double value, const char* field) {
  if (!std::isfinite(value)) {
    throw std::invalid_argument(std::string("PhantomConfig.") + field + " must be finite");
  }
}

void requirePositive(double value, const char* field) {
  if (!std::isfinite(value) || value <= 0) {
    throw std::invalid_argument(std::string("PhantomConfig.") + field +
                                " must be positive and finite (got " + std::to_string(value) + ")");
  }
}

void requireRange(double lo, double hi, const char* field) {
  requireFinite(lo, field);
  requireFinite(hi, field);
  if (!(hi > lo)) {
    throw std::invalid_argument(std::string("PhantomConfig.") + field +
                                ": the maximum must exceed the minimum");
  }
}

}  // namespace

void PhantomConfig::validate() const {
  requireRange(xMinM, xMaxM, "xMinM/xMaxM");
  requireRange(yMinM, yMaxM, "yMinM/yMaxM");
  requireRange(zMinM, zMaxM, "zMinM/zMaxM");
  requirePositive(scatterersPerResolutionCell, "scatterersPerResolutionCell");
  requirePositive(resolutionCellM3, "resolutionCellM3");
  requireFinite(speckleAmplitude, "speckleAmplitude");
  const double volume = (xMaxM - xMinM) * (yMaxM - yMinM) * (zMaxM - zMinM);
  // Guards against unit mistakes (millimetres given as metres) that would exhaust memory.
  if (speckle && volume / resolutionCellM3 * scatterersPerResolutionCell > 5e7) {
    throw std::invalid_argument(
        "PhantomConfig: more than 50 million speckle scatterers requested; check the extent "
        "(metres) and scatterersPerResolutionCell");
  }
  for (double x : pointTargetXM) {
    requireFinite(x, "pointTargetXM");
  }
  for (double z : pointTargetZM) {
    requireFinite(z, "pointTargetZM");
  }
  requireFinite(pointTargetYM, "pointTargetYM");
  requireFinite(pointTargetAmplitude, "pointTargetAmplitude");
  requirePositive(anechoicCyst.radiusM, "anechoicCyst.radiusM");
  requirePositive(hyperechoicCyst.radiusM, "hyperechoicCyst.radiusM");
  requireFinite(hyperechoicGain, "hyperechoicGain");
  requirePositive(vesselPeriodM, "vesselPeriodM");
  requirePositive(vesselRadiusM, "vesselRadiusM");
  requireFinite(vesselXM + vesselZM + vesselXAmplitudeM + vesselZAmplitudeM, "vessel centre line");
  requireFinite(vesselGain, "vesselGain");
}

Phantom::Phantom(const PhantomConfig& config, std::uint64_t seed) : config_(config), seed_(seed) {
  config_.validate();
  addPointTargets();
  addSpeckle(seed);
}

Phantom Phantom::fromScatterers(std::vector<Scatterer> scatterers) {
  Phantom phantom;
  phantom.config_.speckle = false;
  phantom.config_.pointTargets = false;
  phantom.config_.cysts = false;
  phantom.config_.vessel = false;
  phantom.scatterers_ = std::move(scatterers);
  return phantom;
}

std::vector<Point3> Phantom::pointTargets() const {
  std::vector<Point3> points;
  if (!config_.pointTargets) {
    return points;
  }
  for (double z : config_.pointTargetZM) {
    for (double x : config_.pointTargetXM) {
      points.push_back({x, config_.pointTargetYM, z});
    }
  }
  return points;
}

Point3 Phantom::vesselCentre(double y) const {
  const double phase = 2 * std::numbers::pi * y / config_.vesselPeriodM;
  return {config_.vesselXM + config_.vesselXAmplitudeM * std::sin(phase), y,
          config_.vesselZM + config_.vesselZAmplitudeM * std::cos(phase)};
}

bool Phantom::insideVessel(double x, double y, double z) const {
  if (!config_.vessel) {
    return false;
  }
  const Point3 c = vesselCentre(y);
  const double dx = x - c.x, dz = z - c.z;
  return dx * dx + dz * dz < config_.vesselRadiusM * config_.vesselRadiusM;
}

void Phantom::addPointTargets() {
  for (const Point3& p : pointTargets()) {
    scatterers_.push_back({static_cast<float>(p.x), static_cast<float>(p.y),
                           static_cast<float>(p.z),
                           static_cast<float>(config_.pointTargetAmplitude)});
  }
}

void Phantom::addSpeckle(std::uint64_t seed) {
  if (!config_.speckle) {
    return;
  }
  const PhantomConfig& c = config_;
  const double volume = (c.xMaxM - c.xMinM) * (c.yMaxM - c.yMinM) * (c.zMaxM - c.zMinM);
  const auto count = static_cast<std::size_t>(
      std::llround(volume / c.resolutionCellM3 * c.scatterersPerResolutionCell));
  scatterers_.reserve(scatterers_.size() + count);
  std::mt19937_64 rng(acquire::detail::mixSeed(seed));
  for (std::size_t i = 0; i < count; ++i) {
    // Always draw all four numbers so that the stream does not depend on which features are on.
    const double x = acquire::detail::uniform(rng, c.xMinM, c.xMaxM);
    const double y = acquire::detail::uniform(rng, c.yMinM, c.yMaxM);
    const double z = acquire::detail::uniform(rng, c.zMinM, c.zMaxM);
    double amplitude = c.speckleAmplitude * acquire::detail::standardNormal(rng);
    if (c.cysts && c.anechoicCyst.contains(x, y, z)) {
      continue;
    }
    if (c.cysts && c.hyperechoicCyst.contains(x, y, z)) {
      amplitude *= c.hyperechoicGain;
    }
    if (insideVessel(x, y, z)) {
      amplitude *= c.vesselGain;
    }
    scatterers_.push_back({static_cast<float>(x), static_cast<float>(y), static_cast<float>(z),
                           static_cast<float>(amplitude)});
  }
}

}  // namespace cineflow::ultrasound

#include "ultrasound/flow_phantom.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "acquire/random.hpp"

namespace cineflow::ultrasound {
namespace {

void requirePositive(double value, const char* field) {
  if (!std::isfinite(value) || value <= 0) {
    throw std::invalid_argument(std::string("FlowPhantomConfig.") + field +
                                " must be positive and finite (got " + std::to_string(value) + ")");
  }
}

double radians(double degrees) {
  return degrees * std::numbers::pi / 180;
}

}  // namespace

void FlowPhantomConfig::validate() const {
  if (!(xMaxM > xMinM) || !(zMaxM > zMinM) || !(zMinM > 0) || !std::isfinite(xMinM) ||
      !std::isfinite(xMaxM) || !std::isfinite(zMaxM)) {
    throw std::invalid_argument(
        "FlowPhantomConfig: the scene needs xMin < xMax and 0 < zMin < zMax");
  }
  requirePositive(scatterersPerCell, "scatterersPerCell");
  requirePositive(cellM2, "cellM2");
  if ((xMaxM - xMinM) * (zMaxM - zMinM) / cellM2 * scatterersPerCell > 2e6) {
    throw std::invalid_argument("FlowPhantomConfig: more than 2 million scatterers");
  }
  requirePositive(vesselRadiusM, "vesselRadiusM");
  requirePositive(vesselLengthM, "vesselLengthM");
  requirePositive(diskRadiusM, "diskRadiusM");
  if (!std::isfinite(vesselAngleDeg) || std::abs(vesselAngleDeg) >= 90) {
    throw std::invalid_argument("FlowPhantomConfig.vesselAngleDeg must lie in (-90, 90)");
  }
  for (const double v :
       {vesselPeakVelocity, diskAngularVelocity, tissueAmplitude, bloodAmplitude, diskAmplitude,
        vesselCentreXM, vesselCentreZM, diskCentreXM, diskCentreZM}) {
    if (!std::isfinite(v)) {
      throw std::invalid_argument(
          "FlowPhantomConfig: a velocity, amplitude or centre is not "
          "finite");
    }
  }
}

FlowPhantom::FlowPhantom(const FlowPhantomConfig& config, std::uint64_t seed) : config_(config) {
  config_.validate();
  std::mt19937_64 rng(acquire::detail::mixSeed(seed ^ 0x666c6f77ULL));  // "flow": its own stream
  const auto uniform = [&rng](double lo, double hi) {
    return acquire::detail::uniform(rng, lo, hi);
  };
  const auto normal = [&rng] { return acquire::detail::standardNormal(rng); };
  const FlowPhantomConfig& c = config_;
  const double density = c.scatterersPerCell / c.cellM2;
  const auto count =
      static_cast<std::size_t>(std::llround((c.xMaxM - c.xMinM) * (c.zMaxM - c.zMinM) * density));
  for (std::size_t i = 0; i < count; ++i) {
    const double x = uniform(c.xMinM, c.xMaxM);
    const double z = uniform(c.zMinM, c.zMaxM);
    const double amplitude = normal() * c.tissueAmplitude;
    if (insideVessel(x, z) || insideDisk(x, z)) {
      continue;
    }
    tissue_.push_back(
        {static_cast<float>(x), 0.0f, static_cast<float>(z), static_cast<float>(amplitude)});
  }
  if (c.vessel) {
    const double area = c.vesselLengthM * 2 * c.vesselRadiusM;
    const auto n = static_cast<std::size_t>(std::llround(area * density));
    for (std::size_t i = 0; i < n; ++i) {
      const double u = uniform(-c.vesselLengthM / 2, c.vesselLengthM / 2);
      const double r = uniform(-c.vesselRadiusM, c.vesselRadiusM);
      blood_.push_back({static_cast<float>(u), static_cast<float>(r),
                        static_cast<float>(normal() * c.bloodAmplitude)});
    }
  }
  if (c.disk) {
    const double area = std::numbers::pi * c.diskRadiusM * c.diskRadiusM;
    const auto n = static_cast<std::size_t>(std::llround(area * density));
    for (std::size_t i = 0; i < n; ++i) {
      // Uniform over the disk: radius sqrt(uniform) R.
      const double radius = c.diskRadiusM * std::sqrt(uniform(0.0, 1.0));
      const double angle = uniform(0.0, 2 * std::numbers::pi);
      disk_.push_back({static_cast<float>(radius), static_cast<float>(angle),
                       static_cast<float>(normal() * c.diskAmplitude)});
    }
  }
}

double FlowPhantom::acrossVessel(double x, double z) const {
  // Signed distance from the axis through the centre with direction (cos a, -sin a).
  const double a = radians(config_.vesselAngleDeg);
  return (x - config_.vesselCentreXM) * std::sin(a) + (z - config_.vesselCentreZM) * std::cos(a);
}

bool FlowPhantom::insideVessel(double x, double z) const {
  return config_.vessel && std::abs(acrossVessel(x, z)) < config_.vesselRadiusM;
}

bool FlowPhantom::insideDisk(double x, double z) const {
  if (!config_.disk) {
    return false;
  }
  const double dx = x - config_.diskCentreXM;
  const double dz = z - config_.diskCentreZM;
  return dx * dx + dz * dz < config_.diskRadiusM * config_.diskRadiusM;
}

double FlowPhantom::axialVelocity(double x, double z) const {
  const FlowPhantomConfig& c = config_;
  if (insideVessel(x, z)) {
    const double ratio = acrossVessel(x, z) / c.vesselRadiusM;
    // Along the axis (cos a, -sin a): towards the probe at speed v sin a.
    return c.vesselPeakVelocity * (1 - ratio * ratio) * std::sin(radians(c.vesselAngleDeg));
  }
  if (insideDisk(x, z)) {
    // The left side comes up for a positive angular velocity: -dz/dt = w (xc - x).
    return c.diskAngularVelocity * (c.diskCentreXM - x);
  }
  return 0;
}

void FlowPhantom::scatterersAt(double t, std::vector<Scatterer>& out) const {
  const FlowPhantomConfig& c = config_;
  out.assign(tissue_.begin(), tissue_.end());
  const double a = radians(c.vesselAngleDeg);
  const double ca = std::cos(a), sa = std::sin(a);
  for (const Moving& m : blood_) {
    const double ratio = m.r / c.vesselRadiusM;
    double u = m.u + c.vesselPeakVelocity * (1 - ratio * ratio) * t;
    // Wrap into [-L/2, L/2): the tube's ends lie outside the scene.
    u -= c.vesselLengthM * std::floor(u / c.vesselLengthM + 0.5);
    // Axis (cos a, -sin a), across (sin a, cos a).
    const double x = c.vesselCentreXM + u * ca + m.r * sa;
    const double z = c.vesselCentreZM - u * sa + m.r * ca;
    out.push_back({static_cast<float>(x), 0.0f, static_cast<float>(z), m.amplitude});
  }
  for (const Moving& m : disk_) {
    // Angle measured from +x towards +z (down): dz/dt = w rho cos(angle) = w (x - xc), so a
    // positive angular velocity brings the left side (cos < 0) up.
    const double angle = m.r + c.diskAngularVelocity * t;
    const double x = c.diskCentreXM + m.u * std::cos(angle);
    const double z = c.diskCentreZM + m.u * std::sin(angle);
    out.push_back({static_cast<float>(x), 0.0f, static_cast<float>(z), m.amplitude});
  }
}

}  // namespace cineflow::ultrasound

#pragma once
// The simulator's built-in 3-D phantom: a deterministic cloud of point scatterers, in metres, with
// x lateral (along the array), y elevation (the sweep direction) and z depth. It holds what an
// operator expects on a test phantom: a grid of bright point targets, an anechoic cyst, a
// hyperechoic cyst, fully developed speckle, and a bright vessel that winds through elevation so
// that a volume's maximum-intensity projections show it.
//
// Determinism: the same (config, seed) gives bit-identical scatterers with any standard library
// (only std::mt19937_64 is used; see random.hpp).

#include <cstdint>
#include <span>
#include <vector>

namespace cineflow::ultrasound {

struct Point3 {
  double x = 0, y = 0, z = 0;  // metres
};

struct Scatterer {
  float x = 0, y = 0, z = 0;  // metres
  float amplitude = 0;        // signed reflectivity
};

struct Sphere {
  Point3 centre;
  double radiusM = 0;
  bool contains(double x, double y, double z) const {
    const double dx = x - centre.x, dy = y - centre.y, dz = z - centre.z;
    return dx * dx + dy * dy + dz * dz < radiusM * radiusM;
  }
};

// Defaults match the default SimulatorConfig: a 128 x 0.3 mm array (x within +-19.2 mm), a sweep
// of +-4 mm plus three elevation beam widths (3 x 0.6 mm) on each side, and 40 mm of depth.
struct PhantomConfig {
  // Extent of the speckle medium.
  double xMinM = -19.2e-3, xMaxM = 19.2e-3;
  double yMinM = -5.8e-3, yMaxM = 5.8e-3;
  double zMinM = 2e-3, zMaxM = 40e-3;

  bool speckle = true;
  // About ten scatterers per resolution cell give fully developed (Rayleigh) speckle. The cell of
  // the default 5 MHz, 60 % bandwidth system: lateral lambda x f-number 1.5 = 0.46 mm, axial
  // c / 2 x envelope FWHM = 0.23 mm, elevation FWHM of the 0.6 mm-sigma beam = 1.41 mm.
  double scatterersPerResolutionCell = 10;
  double resolutionCellM3 = 0.46e-3 * 0.23e-3 * 1.41e-3;
  double speckleAmplitude = 1.0;  // standard deviation of the Gaussian amplitudes

  // Point targets on a grid of columns x rows, all at elevation pointTargetYM.
  bool pointTargets = true;
  std::vector<double> pointTargetXM = {-12e-3, 0.0, 12e-3};
  std::vector<double> pointTargetZM = {8e-3, 18e-3, 28e-3, 38e-3};
  double pointTargetYM = 0;
  double pointTargetAmplitude = 50;  // about 25 dB above the speckle in the image

  // Cysts are carved out of (anechoic) or brightened in (hyperechoic) the speckle.
  bool cysts = true;
  Sphere anechoicCyst{{-6e-3, 0, 23e-3}, 2.5e-3};
  Sphere hyperechoicCyst{{6e-3, 0, 23e-3}, 2.5e-3};
  double hyperechoicGain = 3;

  // Speckle within vesselRadiusM (in the x-z plane) of the centre line
  //   x(y) = vesselXM + vesselXAmplitudeM sin(2 pi y / vesselPeriodM)
  //   z(y) = vesselZM + vesselZAmplitudeM cos(2 pi y / vesselPeriodM)
  // is brightened by vesselGain.
  bool vessel = true;
  double vesselXM = 0, vesselZM = 13e-3;
  double vesselXAmplitudeM = 8e-3, vesselZAmplitudeM = 2e-3;
  double vesselPeriodM = 11.6e-3;
  double vesselRadiusM = 1.2e-3;
  double vesselGain = 4;

  // Throws std::invalid_argument naming the first bad field.
  void validate() const;
};

class Phantom {
 public:
  // Generates the scatterers. Throws std::invalid_argument for an invalid config.
  Phantom(const PhantomConfig& config, std::uint64_t seed);
  // A phantom made of exactly these scatterers (every generated feature off): for tests and for
  // callers that bring their own scene.
  static Phantom fromScatterers(std::vector<Scatterer> scatterers);

  const PhantomConfig& config() const { return config_; }
  std::uint64_t seed() const { return seed_; }
  std::span<const Scatterer> scatterers() const { return scatterers_; }

  // Configured point-target positions (empty when point targets are off).
  std::vector<Point3> pointTargets() const;
  Point3 vesselCentre(double y) const;
  bool insideVessel(double x, double y, double z) const;

 private:
  Phantom() = default;
  void addPointTargets();
  void addSpeckle(std::uint64_t seed);

  PhantomConfig config_;
  std::uint64_t seed_ = 0;
  std::vector<Scatterer> scatterers_;
};

}  // namespace cineflow::ultrasound

#pragma once
// The flow simulator's scene (issue 20): a 2-D plane of point scatterers (y = 0) whose blood and
// disk move with known velocities, so that colour Doppler's sign and magnitude can be checked.
//
//   tissue   static speckle over the scene, carved out where the vessel and the disk are
//   vessel   a straight tube of radius R through `vesselCentre`, rising towards +x at
//            `vesselAngleDeg` to the array; its blood flows along the axis towards +x with the
//            parabolic (Poiseuille) profile v(r) = vPeak (1 - r^2 / R^2). Scatterers that leave
//            the tube's far end re-enter at its near end (the tube is longer than the scene).
//   disk     a disk of radius `diskRadiusM` turning at `diskAngularVelocity` rad/s; positive turns
//            its left side (smaller x) towards the probe (up, smaller z), as the Verasonics
//            recording's disk does.
//
// axialVelocity() gives the true velocity along z at a point, positive towards the probe (z
// decreasing), the quantity colour Doppler estimates. Deterministic: the same (config, seed)
// gives the same scatterers (std::mt19937_64 only).

#include <cstdint>
#include <vector>

#include "ultrasound/phantom.hpp"

namespace cineflow::ultrasound {

struct FlowPhantomConfig {
  double xMinM = -19.2e-3, xMaxM = 19.2e-3;  // the default array's width
  double zMinM = 3e-3, zMaxM = 34e-3;
  // Scatterers per 2-D resolution cell (0.46 mm x 0.23 mm at 5 MHz): a few give speckle enough
  // for Doppler at a fraction of the 3-D phantom's cost.
  double scatterersPerCell = 5;
  double cellM2 = 0.46e-3 * 0.23e-3;
  double tissueAmplitude = 1.0;

  bool vessel = true;
  double vesselCentreXM = -3e-3, vesselCentreZM = 13e-3;
  double vesselAngleDeg = 30;  // the axis rises (z falls) towards +x
  double vesselRadiusM = 3e-3;
  double vesselLengthM = 80e-3;     // its ends, where blood is recycled, lie far outside the scene
  double vesselPeakVelocity = 0.4;  // m/s along the axis, at its centre
  double bloodAmplitude = 0.3;      // -10 dB of the tissue

  bool disk = true;
  double diskCentreXM = 4e-3, diskCentreZM = 24e-3;
  double diskRadiusM = 6e-3;
  double diskAngularVelocity = 60;  // rad/s; positive: the left side comes up
  double diskAmplitude = 1.0;

  // Throws std::invalid_argument naming the first bad field.
  void validate() const;
};

class FlowPhantom {
 public:
  FlowPhantom(const FlowPhantomConfig& config, std::uint64_t seed);
  // Every scatterer at time `t` (seconds; 0: as placed), into `out` (resized).
  void scatterersAt(double t, std::vector<Scatterer>& out) const;
  // The true axial velocity at (x, z), m/s, positive towards the probe; 0 in the tissue.
  double axialVelocity(double x, double z) const;
  bool insideVessel(double x, double z) const;
  bool insideDisk(double x, double z) const;
  const FlowPhantomConfig& config() const { return config_; }
  std::size_t size() const { return tissue_.size() + blood_.size() + disk_.size(); }

 private:
  struct Moving {
    float u, r;  // vessel: along the axis from the centre, across it; disk: radius, angle
    float amplitude;
  };
  double acrossVessel(double x, double z) const;

  FlowPhantomConfig config_;
  std::vector<Scatterer> tissue_;
  std::vector<Moving> blood_, disk_;
};

}  // namespace cineflow::ultrasound

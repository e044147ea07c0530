#pragma once
// The image every modality's chain produces and every view, store and projection consumes:
// float32 [layer][z][x], row-major, pixel (i, k) centred at lateral x0 + i*dx and depth z0 + k*dz
// (metres; for OCT, depth is the optical path in the sample as its modality scales it).
//
// Layer 0 is the intensity image (dB) that every view, measurement, projection and volume reads.
// An image with flow (colour and power Doppler, whichever modality estimates it) has
// kFlowImageLayers layers: after the intensity, the axial velocity (m/s, positive towards the
// probe), its variance (m^2/s^2) and the flow signal's power (dB), NaN where nothing was estimated
// (outside the colour box, before the first full ensemble); `aliasingVelocity` is then the
// velocity at which the estimate wraps (m/s). The pipeline moves all layers alike and never reads
// them.

#include <cstddef>

namespace cineflow::process {

inline constexpr int kFlowImageLayers = 4;
enum ImageLayer : int {
  kIntensityLayer = 0,
  kVelocityLayer = 1,
  kVarianceLayer = 2,
  kPowerLayer = 3
};

struct ImageGeometry {
  int nx = 0, nz = 0;
  double x0 = 0, dx = 0, z0 = 0, dz = 0;  // metres
  int layers = 1;                         // 1 (intensity) or kFlowImageLayers
  double aliasingVelocity = 0;            // m/s, when layers == kFlowImageLayers
  // Pixels of one layer.
  std::size_t pixels() const { return static_cast<std::size_t>(nx) * static_cast<std::size_t>(nz); }
  // Floats of the whole image, every layer.
  std::size_t values() const { return pixels() * static_cast<std::size_t>(layers); }
  bool hasFlow() const { return layers == kFlowImageLayers; }
  bool operator==(const ImageGeometry&) const = default;
};

}  // namespace cineflow::process

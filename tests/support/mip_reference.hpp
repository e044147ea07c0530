#pragma once
// Maximum-intensity projections for tests: a plain triple loop (the reference) and a runner that
// puts a volume through MipProjector on any backend.

#include <span>
#include <vector>

#include "compute/backend.hpp"
#include "process/mip.hpp"
#include "process/volume.hpp"

namespace cineflow::test {

struct Mips {
  std::vector<float> alongY, alongZ, alongX;  // [nz][nx], [ny][nx], [ny][nz]
};

// Straight from the definitions in process/mip.hpp (std::fmax, so NaN is ignored).
Mips referenceMips(std::span<const float> volume, const process::VolumeShape& shape);

// Copies `volume` to `backend`, projects it on a fresh stream, copies the results back. Outputs
// start as a poison value, so an unwritten element shows; the projector first projects a brighter
// copy of the volume, so state left between enqueues shows too. `variant` indexes
// MipProjector::variants().
Mips runMips(compute::Backend& backend, const std::vector<float>& volume,
             const process::VolumeShape& shape, std::size_t variant = 0);

// Equal element for element, zeros with their sign (-0 does not match +0), NaN matching NaN.
bool identical(const std::vector<float>& a, const std::vector<float>& b);

// A seeded random volume of dB-like values (-80..0) with a few bright voxels.
std::vector<float> randomVolume(const process::VolumeShape& shape, std::uint64_t seed);

// A volume's description as the engine makes one: numbered `number`, slices 0.1 x 0.05 mm from
// (-2, 5) mm, elevations 0.5 mm apart from -1 mm, sequence numbers from 1000, 50 ms apart.
process::VolumeInfo someVolumeInfo(const process::VolumeShape& shape, std::uint64_t number);

}  // namespace cineflow::test

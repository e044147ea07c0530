#pragma once
// The known answers of the real datasets in data/ (its README): PyMUST's B-mode of the
// Verasonics rotating disk and the Field II scatterer positions, read with the plain HDF5 C API,
// and the measures the validation and GUI tests apply to Cineflow's images of them.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "ultrasound/imaging_params.hpp"

namespace cineflow::test {

// verasonics_rotating_disk.h5: /reference/bmode_u8 [frames][z][x] and its grid (x_m, z_m).
struct DiskReference {
  std::vector<std::uint8_t> bmode;
  std::vector<double> xM, zM;
  std::size_t frames() const { return xM.empty() ? 0 : bmode.size() / (xM.size() * zM.size()); }
  std::size_t pixels() const { return xM.size() * zM.size(); }
  // The reference's grid (uniform steps) as Cineflow's imaging grid.
  ultrasound::ImagingGrid grid() const;
};
// Read it before the engine opens the file: HDF5 refuses a second open of a file with other
// file-close properties in the same process. Throws std::runtime_error when unreadable.
DiskReference readDiskReference(const std::string& path);

// Every image (all layers) the engine makes of the first `frames` frames of `path` with `imaging`
// on the CPU backend, unpaced, indexed by source frame. QVERIFY-style failures throw
// std::runtime_error (an engine that did not finish).
std::vector<std::vector<float>> imageRecording(const std::string& path,
                                               const ultrasound::ImagingParams& imaging,
                                               std::size_t frames);

// The reference's dynamic range: PyMUST's bmode() at 30 dB.
inline constexpr double kDiskDynamicRangeDb = 30.0;
// PyMUST's bmode(): 20 log10(|IQ| / max) + DR, scaled to 255 / DR and saturated to uint8; `db`
// is Cineflow's image in dB (any offset).
std::vector<double> bmodeUint8(const std::vector<float>& db, double dynamicRangeDb);
// Pearson's correlation of a[0, n) and b[0, n).
double pearson(const std::vector<double>& a, const std::uint8_t* b, std::size_t n);

// field2_pw3_points.h5: /reference/scatterers_m [n] (x, y, z). Throws std::runtime_error.
std::vector<std::array<double, 3>> readScatterers(const std::string& path);

// The README's isolated points (on the axis at 10.35, 22.18, 34.00 and 45.83 mm): for each, the
// distance in metres from its true position to the sub-pixel peak (findSubPixelPeak) within 1 mm
// of it in `image` ([z][x] dB on `geometry`). Logs each.
std::vector<double> isolatedPointErrors(const std::vector<float>& image,
                                        const process::ImageGeometry& geometry,
                                        const std::vector<std::array<double, 3>>& scatterers);

}  // namespace cineflow::test

#include "view3d/volume_level.hpp"

#include <algorithm>

namespace cineflow::ui {

int levelSampleRowStride(const process::VolumeShape& shape) {
  const std::size_t rows = shape.alongX();
  const std::size_t rowsWanted =
      std::max<std::size_t>(1, kLevelSampleVoxels / std::max<std::size_t>(1, shape.nx));
  return static_cast<int>(std::max<std::size_t>(1, (rows + rowsWanted - 1) / rowsWanted));
}

int levelSampleRows(const process::VolumeShape& shape) {
  const std::size_t rows = shape.alongX();
  if (rows == 0 || shape.nx <= 0) {
    return 0;
  }
  const auto stride = static_cast<std::size_t>(levelSampleRowStride(shape));
  return static_cast<int>((rows + stride - 1) / stride);
}

std::vector<float> levelSample(const float* voxels, const process::VolumeShape& shape) {
  const auto rows = static_cast<std::size_t>(levelSampleRows(shape));
  const auto stride = static_cast<std::size_t>(levelSampleRowStride(shape));
  const auto nx = static_cast<std::size_t>(std::max(shape.nx, 0));
  std::vector<float> sample(rows * nx);
  for (std::size_t row = 0; row < rows; ++row) {
    const float* from = voxels + row * stride * nx;
    std::copy(from, from + nx, sample.begin() + static_cast<std::ptrdiff_t>(row * nx));
  }
  return sample;
}

}  // namespace cineflow::ui

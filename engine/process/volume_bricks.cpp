#include "process/volume_bricks.hpp"

#include <stdexcept>
#include <string>

#include "compute/twin.hpp"
#include "process/cuda/brick_max.hpp"
#include "process/cuda/stage_kernels.hpp"
#include "process/stage_checks.hpp"

namespace cineflow::process {
namespace {
constexpr const char* kStage = "brick maxima";
}

VolumeShape brickShape(const VolumeShape& volume) {
  return {cuda::bricksAlong(volume.ny), cuda::bricksAlong(volume.nz), cuda::bricksAlong(volume.nx)};
}

void brickMaximaHost(const float* volume, const VolumeShape& shape, float* bricks) {
  const VolumeShape grid = brickShape(shape);
  for (int by = 0; by < grid.ny; ++by) {
    for (int bz = 0; bz < grid.nz; ++bz) {
      for (int bx = 0; bx < grid.nx; ++bx) {
        bricks[(static_cast<std::size_t>(by) * grid.nz + bz) * grid.nx + bx] =
            cuda::brickMaximum(volume, shape.ny, shape.nz, shape.nx, bx, bz, by);
      }
    }
  }
}

void enqueueBrickMaxima(compute::Stream& stream, compute::BackendKind kind,
                        compute::DeviceSpan<const float> volume, const VolumeShape& shape,
                        compute::DeviceSpan<float> bricks) {
  if (shape.voxels() == 0) {
    throw std::invalid_argument("brick maxima: an empty volume");
  }
  detail::requireSize(kStage, "volume", volume.size(), shape.voxels());
  detail::requireSize(kStage, "bricks", bricks.size(), brickShape(shape).voxels());
  detail::requireData(kStage, "the volume", volume.data());
  detail::requireData(kStage, "the bricks", bricks.data());
  compute::onTwin(
      kind,
      [&] {
        stream.enqueueHost(
            [shape, v = volume.data(), b = bricks.data()] { brickMaximaHost(v, shape, b); });
      },
      [&] {
        cuda::enqueueBrickMaxima(stream, volume.data(), shape.ny, shape.nz, shape.nx,
                                 bricks.data());
      });
}

}  // namespace cineflow::process

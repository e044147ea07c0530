#pragma once
// A volume on the host for the 3-D view (VolumeView): dB values [ny][nz][nx] and the voxel's size
// in millimetres, copied from the engine's newest volume or a buffered one (VolumeController).

#include <cstdint>
#include <vector>

#include <QVector3D>

namespace cineflow::ui {

struct VolumeData {
  std::vector<float> voxels;
  int nx = 0;
  int nz = 0;
  int ny = 0;
  QVector3D voxelMm{1, 1, 1};  // along x, depth, elevation
  std::uint64_t number = 0;    // the engine's volume number (shown in the corner)
};

}  // namespace cineflow::ui

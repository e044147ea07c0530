#pragma once
// The 3-D view's own white level: like the 2-D volume views (ImageView::setOwnLevel), the 3-D view
// can show each volume at its own echo levels rather than at the live image's absolute gain, so
// that an ultrasound volume stays readable while an OCT source is live (their dB levels differ by
// tens of dB). The level is suggestGainDb (common/display_geometry.hpp) of a sample of the volume:
// whole rows of nx voxels, every levelSampleRowStride()-th of its ny * nz rows, at most
// kLevelSampleVoxels voxels in all, so that it costs a few milliseconds once per volume on the GUI
// thread whatever the volume's size. The host copy and the CUDA path (device_volume_upload.hpp)
// take the same rows, so both give the same level.

#include <cstddef>
#include <vector>

#include "process/mip.hpp"

namespace cineflow::ui {

inline constexpr std::size_t kLevelSampleVoxels = std::size_t{1} << 18;

// Every how many rows (of nx voxels, [ny][nz] of them) the sample takes one (at least 1).
int levelSampleRowStride(const process::VolumeShape& shape);
// How many rows the sample holds.
int levelSampleRows(const process::VolumeShape& shape);
// The sampled rows of a host volume (float32 dB [ny][nz][nx]), one after another.
std::vector<float> levelSample(const float* voxels, const process::VolumeShape& shape);

}  // namespace cineflow::ui

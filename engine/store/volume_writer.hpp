#pragma once
// Saved volumes, schema "cineflow.volume/1" (docs/file-formats.md): self-describing HDF5 that h5py,
// HDFView and MATLAB read without Cineflow.
//
//   /volume        float32 [y][z][x] dB, chunked one slice per chunk, optionally compressed
//                  (store/compression.hpp: gzip, or LZ4 / bitshuffle + LZ4 through plugins);
//                  attributes units = "dB", dimensions = "y, z, x"
//   /mip_y         float32 [z][x]  maximum over y (through the slab)
//   /mip_z         float32 [y][x]  maximum over z (en face)
//   /mip_x         float32 [y][z]  maximum over x (side view)
//   /x_m, /z_m     float64 [nx], [nz] pixel coordinates; /y_m float64 [ny] the slices'
//                  elevations; attribute units = "m"
//   /sequence      uint64 [ny]  each slice's frame sequence number
//   /timestamp_ns  int64 [ny]   each slice's acquisition time (steady clock), units = "ns"
//   /angles_rad, /element_x_m   the acquisition's transmit angles and element positions
//   root attributes: schema, volume_number (int64: the engine's number, as in volume_<n>.h5),
//     compression, sampling_frequency_hz, center_frequency_hz, sound_speed_m_s, t0_s,
//     samples (int64), fractional_bandwidth, bandwidth_source ("recorded", "measured" or
//     "default"), frames_per_volume (int64), and the caller's extra attributes (the GUI adds
//     imagingAttributes(), backend and source).
//
// Written under a temporary name and renamed when complete (store/staged_h5_file.hpp): a failure
// (full disk, read-only folder) throws StoreError and leaves nothing under either name.

#include <filesystem>
#include <functional>
#include <span>

#include "acquire/frame.hpp"
#include "process/volume.hpp"
#include "store/bmode_writer.hpp"  // AttributeMap
#include "store/compression.hpp"

namespace cineflow::store {

// The volume and its projections in host memory, laid out as process::VolumeView describes.
struct HostVolume {
  std::span<const float> volume, alongY, alongZ, alongX;
};

// Throws StoreError, before anything is written, for inconsistent data or a compression that
// cannot be written here (compressionProblem()). The volume is written one slice (one chunk) at a
// time; `progress`, when given, is called after each with the fraction written so far.
void writeVolumeFile(const std::filesystem::path& path, const process::VolumeInfo& info,
                     const HostVolume& data, const FileMetadata& metadata,
                     const AttributeMap& attributes = {}, const Compression& compression = {},
                     const std::function<void(double)>& progress = {});

}  // namespace cineflow::store

#pragma once
// BmodeWriter: writes a B-mode cineloop to a self-describing HDF5 file (docs/file-formats.md),
// schema "cineflow.bmode/1", readable by h5py, HDFView and MATLAB without Cineflow:
//
//   /bmode_db      float32 [frames][z][x], chunked one frame per chunk, attribute units = "dB"
//   an image with flow layers (process/image_geometry.hpp) adds /velocity_m_s (m/s, positive
//   towards the probe, attribute aliasing_velocity_m_s), /variance_m2_s2 and /power_db (dB), each
//   [frames][z][x] like /bmode_db, NaN where nothing was estimated
//   /x_m, /z_m     float64 [nx], [nz] pixel coordinates, attribute units = "m"
//   /sequence      uint64 [frames]   frame sequence numbers (gaps where frames were dropped)
//   /timestamp_ns  int64 [frames]    acquisition time, steady clock, units = "ns"
//   /elevation_m   float64 [frames]  elevation of each frame, units = "m"
//   /flow_fresh    uint8 [frames]    with flow layers: 1 where the frame's flow layers hold an
//                  estimate made at that frame, 0 where they repeat an earlier one (Doppler block
//                  mode between estimates) or hold none yet; averages over frames take the 1s
//   root attribute complete = 1, or 0 with incomplete_reason ("interrupted by SIGINT (Ctrl-C)",
//     the error that stopped the run) when the run ended before its last frame: the file holds
//     every frame processed until then
//   the modality's metadata (store/file_metadata.hpp): root attributes ("modality", for
//     ultrasound sampling_frequency_hz, ..., the imaging parameters) and arrays (for ultrasound
//     /angles_rad, /element_x_m), then the caller's extra attributes; root attribute schema.
//
// Atomicity: everything goes to "<final>.partial-<pid>" in the same directory; finish() closes it
// and renames it onto the final path. Until then, and whenever anything fails, no file exists
// under the final name; destroying the writer without finish() removes the temporary file.
//
// Threading: one thread at a time (BmodeRecorder drives it from its I/O thread).

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <variant>

#include "acquire/frame.hpp"
#include "process/image_geometry.hpp"
#include "store/file_metadata.hpp"
#include "store/store_error.hpp"

namespace cineflow::store {

class BmodeWriter {
 public:
  // Creates the temporary file and writes everything but the frames. Throws StoreError naming
  // the final path and the operation (invalid geometry, unwritable directory, bad path, ...).
  // `metadata`: the modality's description of the acquisition and processing
  // (modality/modality.hpp: describe()); `attributes` add to it (the backend, the source, ...).
  BmodeWriter(const std::filesystem::path& finalPath, const process::ImageGeometry& geometry,
              const FileMetadata& metadata, const AttributeMap& attributes = {});
  // Without a successful finish(): closes and removes the temporary file. Never throws.
  ~BmodeWriter();
  BmodeWriter(const BmodeWriter&) = delete;
  BmodeWriter& operator=(const BmodeWriter&) = delete;

  // Appends one image, [layer][z][x] row-major, geometry.values() values. Throws StoreError (wrong
  // size, write failure such as a full disk, after finish()); after a write failure the writer is
  // spoiled: finish() throws and nothing appears under the final name.
  // `fresh`: every layer was computed from this frame (/flow_fresh).
  void appendFrame(const acquire::FrameHeader& header, std::span<const float> image,
                   bool fresh = true);
  // Flushes, closes and renames onto the final path (replacing an existing file there). Throws
  // StoreError and removes the temporary file on failure.
  void finish();
  // Before finish(): the run ended early, for `reason`; the file is marked incomplete.
  void markIncomplete(const std::string& reason);

  std::uint64_t frames() const;
  const std::filesystem::path& finalPath() const;
  const std::filesystem::path& temporaryPath() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cineflow::store

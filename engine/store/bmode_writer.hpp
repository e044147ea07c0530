#pragma once
// BmodeWriter: writes a B-mode cineloop to a self-describing HDF5 file (DESIGN.md §5), schema
// "cineflow.bmode/1", readable by h5py, HDFView and MATLAB without Cineflow:
//
//   /bmode_db      float32 [frames][z][x], chunked one frame per chunk, attribute units = "dB"
//   /x_m, /z_m     float64 [nx], [nz] pixel coordinates, attribute units = "m"
//   /sequence      uint64 [frames]   frame sequence numbers (gaps where frames were dropped)
//   /timestamp_ns  int64 [frames]    acquisition time, steady clock, units = "ns"
//   /elevation_m   float64 [frames]  elevation of each frame, units = "m"
//   /angles_rad, /element_x_m        the acquisition's transmit angles and element positions
//   root attributes: schema, sampling_frequency_hz, center_frequency_hz, sound_speed_m_s, t0_s,
//     samples (int64), fractional_bandwidth, bandwidth_source, frames_per_volume (int64), and the
//     caller's extra attributes (store/acquisition_layout.hpp).
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
#include "process/imaging_params.hpp"
#include "store/store_error.hpp"

namespace cineflow::store {

// Extra root attributes ("f_number" -> 1.5, "backend" -> "cpu", "grid" -> "-19:19:0.1,...");
// integers (counts, numbers, factors) are written as HDF5 integers.
using AttributeValue = std::variant<std::string, double, std::int64_t>;
using AttributeMap = std::map<std::string, AttributeValue>;

// The processing parameters in effect, as root attributes, so that the image can be made again;
// shared by the B-mode output and saved volumes (README, "Files"): imaging_mode ("rf" | "iq"),
// f_number, apodisation ("hann" | "rect"), grid_mm ("x0:x1:dx,z0:z1:dz"); RF mode:
// bandpass_percent_of_f0 ("70:130"), rf_interpolation and fir_taps (int64); I/Q mode:
// iq_bandwidth_percent and iq_decimation (int64). The values are those in effect for
// `acquisition` (ImagingParams::rfBandFor, rfUpsamplingFor, iqBandwidthFor), never the "automatic"
// zeros; bandwidth_source (writeAcquisition) says where the acquisition's bandwidth came from.
AttributeMap imagingAttributes(const process::ImagingParams& imaging,
                               const acquire::AcquisitionParams& acquisition);

class BmodeWriter {
 public:
  // Creates the temporary file and writes everything but the frames. Throws StoreError naming
  // the final path and the operation (invalid geometry, unwritable directory, bad path, ...).
  BmodeWriter(const std::filesystem::path& finalPath, const process::ImageGeometry& geometry,
              const acquire::AcquisitionParams& acquisition, const AttributeMap& attributes = {});
  // Without a successful finish(): closes and removes the temporary file. Never throws.
  ~BmodeWriter();
  BmodeWriter(const BmodeWriter&) = delete;
  BmodeWriter& operator=(const BmodeWriter&) = delete;

  // Appends one image, [z][x] row-major, geometry.pixels() values. Throws StoreError (wrong size,
  // write failure such as a full disk, after finish()); after a write failure the writer is
  // spoiled: finish() throws and nothing appears under the final name.
  void appendFrame(const acquire::FrameHeader& header, std::span<const float> image);
  // Flushes, closes and renames onto the final path (replacing an existing file there). Throws
  // StoreError and removes the temporary file on failure.
  void finish();

  std::uint64_t frames() const;
  const std::filesystem::path& finalPath() const;
  const std::filesystem::path& temporaryPath() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cineflow::store

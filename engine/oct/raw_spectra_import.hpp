#pragma once
// Raw OCT spectra as spectrometer software keeps them (OCTproZ, vortex and lab code: a .bin or
// .raw file of uint16 spectra, frames after frames, [frames][ascans][samples], after an optional
// header), described by a JSON file, into a cineflow.oct/1 recording (oct_writer.hpp).
//
// The description, one JSON object; every key is checked and an unknown key is refused (a typo
// must not silently fall back to a default):
//
//   samples, ascans            per A-scan, per B-scan (flyback included): whole numbers
//   bit_depth                  12 or 16
//   header_bytes               optional, default 0: bytes before the first frame
//   sample_format              optional: "uint16" (little-endian, the default) or "uint16be"
//   the wavelength of each sample, exactly one of:
//     wavelength_first_m + wavelength_last_m   evenly spaced in wavelength
//     wavelength_file          a text file, one wavelength in metres per line (blank lines and
//                              lines starting with '#' skipped), relative to the description's
//                              folder
//     wavelength_polynomial_m  [c0, c1, ...]: lambda(i) = sum c_k i^k, i = 0 .. samples - 1
//   centre_wavelength_m        the light source's centre wavelength
//   bandwidth_m                optional, default 0 (not known)
//   bscans_per_volume          0: B-scans only
//   bidirectional              true / false (or 1 / 0)
//   flyback_ascans             A-scans at the end of each B-scan not imaged
//   lateral_step_m, elevation_step_m
//   line_rate_hz               optional, default 0 (not known)
//   dispersion_a2_rad, dispersion_a3_rad
//                              optional: the compensation that images it (OctParams a2, a3:
//                              radians at u = (k - k0) / (N dk) = 1)
//   dispersion_centre_wavelength_m
//                              optional: the wavelength they are stated about (default: the
//                              centre wavelength)
//
// Errors throw RawSpectraError naming the file (the description, the wavelength file or the raw
// file) and the problem.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "acquire/frame_source.hpp"  // ProgressFn
#include "oct/oct_acquisition.hpp"
#include "oct/oct_recording.hpp"
#include "store/file_metadata.hpp"

namespace cineflow::oct {

class RawSpectraError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class RawSampleFormat { Uint16LittleEndian, Uint16BigEndian };

struct RawSpectraDescription {
  OctAcquisition acquisition;  // validated
  std::uint64_t headerBytes = 0;
  RawSampleFormat sampleFormat = RawSampleFormat::Uint16LittleEndian;
  std::optional<OctDispersion> dispersion;

  std::size_t frameBytes() const { return acquisition.samplesPerFrame() * 2; }
};

// Parses a description. `name` starts every message (the JSON file's name); `folder` is where a
// relative wavelength_file lies. Throws RawSpectraError.
RawSpectraDescription parseRawSpectraDescription(std::string_view json, const std::string& name,
                                                 const std::filesystem::path& folder);
// Reads and parses the description at `path`. Throws RawSpectraError.
RawSpectraDescription readRawSpectraDescription(const std::filesystem::path& path);

// The number of whole frames in the raw file `in`: its size must be header + k frames, k >= 1.
// Throws RawSpectraError otherwise, with the numbers ("in.bin has 12345 bytes after its 0-byte
// header: 3.2 frames of 4194304 bytes").
std::uint64_t rawFrameCount(const std::filesystem::path& in,
                            const RawSpectraDescription& description);

// Frame `index` of the raw file `in` as uint16 counts [ascans][samples] (e.g. the B-scan an
// automatic dispersion search looks at). Throws RawSpectraError.
std::vector<std::uint16_t> readRawSpectraFrame(const std::filesystem::path& in,
                                               const RawSpectraDescription& description,
                                               std::uint64_t index);

// Converts `in` to a cineflow.oct/1 recording at `out`, a frame at a time, with `extra` root
// attributes (e.g. "source"). Returns the frames written. Throws RawSpectraError (the raw file:
// rawFrameCount(), or fewer frames than one volume) or store::StoreError (the output; nothing is
// left under `out`).
std::uint64_t importRawSpectra(const std::filesystem::path& in,
                               const RawSpectraDescription& description,
                               const std::filesystem::path& out,
                               const store::AttributeMap& extra = {},
                               const acquire::ProgressFn& progress = {});

}  // namespace cineflow::oct

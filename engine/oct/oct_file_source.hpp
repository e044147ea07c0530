#pragma once
// OctFileSource: replays an OCT recording in schema cineflow.oct/1 (oct_recording.hpp; written by
// oct_writer.hpp, `cineflow convert`, or any HDF5 tool).
//
// The constructor validates everything up front, so that a file that opens replays without
// surprises; every problem throws SourceError whose message names the file, the object ("/spectra",
// "attribute bit_depth") and what was expected versus found. Cineflow's other files (an RF
// recording, a saved volume, a B-mode output) are named as what they are. The file and /spectra
// stay open for the lifetime of the source; readFrame() reads one frame by hyperslab, so memory
// does not grow with the recording's length. Counts above 2^bit_depth are passed on as they are
// (the chain takes any uint16).

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "acquire/recording_input.hpp"
#include "oct/oct_recording.hpp"
#include "oct/oct_source.hpp"

namespace cineflow::oct {

class OctFileSource final : public OctSource {
 public:
  // `frameRateHz` is the nominal replay rate; 0 replays as fast as the consumer takes frames.
  // Throws SourceError (file missing, not HDF5, truncated, schema violations) and
  // std::invalid_argument for a negative or non-finite rate.
  explicit OctFileSource(const std::filesystem::path& path, double frameRateHz = 20.0);
  // The same from a recording's bytes held in memory (acquire/recording_input.hpp).
  explicit OctFileSource(const acquire::RecordingInput& input, double frameRateHz = 20.0);
  ~OctFileSource() override;
  OctFileSource(const OctFileSource&) = delete;
  OctFileSource& operator=(const OctFileSource&) = delete;

  const OctAcquisition& acquisition() const override { return acquisition_; }
  double frameRateHz() const override { return frameRateHz_; }
  std::uint64_t frameCount() const override { return frames_; }
  // Frame `index` as uint16 [ascans][samples]; slice index = index modulo bscans_per_volume, the
  // elevation centred on the volume (0 without volumes). Throws SourceError naming the file and
  // the frame when the read fails (damaged data).
  void readFrame(std::uint64_t index, std::span<std::byte> dst, acquire::SliceInfo& slice) override;
  acquire::StoredFormat storedFormat() const override;
  std::size_t readStoredFrame(std::uint64_t index, std::span<std::byte> dst,
                              acquire::SliceInfo& slice) override;
  // "name.h5 (32 frames, 512 A-scans x 2048 samples)"
  std::string describe() const override;

  const std::filesystem::path& path() const { return path_; }
  // The dispersion compensation the file states (dispersion_a2_rad / dispersion_a3_rad; one
  // given alone means the other is 0) about dispersion_centre_wavelength_m, or none. Without that
  // attribute (older recordings) a2 is restated about the centre wavelength (oct_recording.hpp).
  std::optional<OctDispersion> recordedDispersion() const override { return dispersion_; }
  // Whether the wavelengths came from /k_rad_per_m (converted) rather than /wavelength_m.
  bool wavelengthsFromK() const { return wavelengthsFromK_; }

 private:
  struct Handles;  // HDF5 identifiers; HDF5 stays out of this header
  void describeSlice(std::uint64_t index, acquire::SliceInfo& slice) const;

  std::filesystem::path path_;
  double frameRateHz_ = 0;
  OctAcquisition acquisition_;
  std::uint64_t frames_ = 0;
  bool interrupted_ = false;  // a raw recording cut off (recording_complete = 0)
  std::optional<OctDispersion> dispersion_;
  bool wavelengthsFromK_ = false;
  std::unique_ptr<Handles> handles_;
};

}  // namespace cineflow::oct

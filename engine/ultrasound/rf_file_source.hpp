#pragma once
// RfFileSource: replays an RF recording in schema cineflow.rf/1 (docs/file-formats.md):
//
//   /rf           int16 or float32 [frames][transmits][elements][samples]
//                 attributes schema = "cineflow.rf/1", sampling_frequency_hz, center_frequency_hz,
//                 sound_speed_m_s, t0_s (each on /rf, or on the root group), optional
//                 fractional_bandwidth_percent and frames_per_volume
//   /angles_rad   [transmits]      transmit steering angles
//   /element_x_m  [elements]       lateral element positions, strictly increasing
//   /elevation_m  [frames]         optional elevation of each frame
//
// The constructor validates everything up front, so that a file that opens replays without
// surprises; every problem throws SourceError whose message names the file, the object ("/rf",
// "attribute sampling_frequency_hz") and what was expected versus found. The file and /rf stay
// open for the lifetime of the source; readFrame() reads one frame by hyperslab, so memory does
// not grow with the recording's length.

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "acquire/frame_source.hpp"
#include "acquire/recording_input.hpp"
#include "ultrasound/ultrasound_source.hpp"

namespace cineflow::ultrasound {

class RfFileSource final : public UltrasoundSource {
 public:
  // `frameRateHz` is the nominal replay rate; 0 replays as fast as the consumer takes frames.
  // Throws SourceError (file missing, not HDF5, truncated, schema violations) and
  // std::invalid_argument for a negative or non-finite rate.
  explicit RfFileSource(const std::filesystem::path& path, double frameRateHz = 20.0);
  // The same from a recording's bytes held in memory (acquire/recording_input.hpp).
  explicit RfFileSource(const acquire::RecordingInput& input, double frameRateHz = 20.0);
  ~RfFileSource() override;
  RfFileSource(const RfFileSource&) = delete;
  RfFileSource& operator=(const RfFileSource&) = delete;

  const acquire::AcquisitionParams& params() const override { return params_; }
  acquire::SampleType sampleType() const override { return sampleType_; }
  double frameRateHz() const override { return frameRateHz_; }
  std::uint64_t frameCount() const override { return frames_; }
  // Throws SourceError naming the file and frame index when the read fails (damaged data).
  void readFrame(std::uint64_t index, std::span<std::byte> dst, acquire::SliceInfo& slice) override;
  acquire::StoredFormat storedFormat() const override;
  std::size_t readStoredFrame(std::uint64_t index, std::span<std::byte> dst,
                              acquire::SliceInfo& slice) override;
  std::string describe() const override;

  const std::filesystem::path& path() const { return path_; }
  // /elevation_m, or empty when the file has none (then every frame reports elevation 0).
  const std::vector<double>& elevations() const { return elevations_; }

 private:
  struct Handles;  // HDF5 identifiers; HDF5 stays out of this header
  void describeSlice(std::uint64_t index, acquire::SliceInfo& slice) const;

  std::filesystem::path path_;
  double frameRateHz_ = 0;
  acquire::AcquisitionParams params_;
  acquire::SampleType sampleType_ = acquire::SampleType::Int16;
  std::uint64_t frames_ = 0;
  bool interrupted_ = false;  // a raw recording cut off (recording_complete = 0)
  std::vector<double> elevations_;
  std::unique_ptr<Handles> handles_;
};

}  // namespace cineflow::ultrasound

#pragma once
// ReceivedFileSource: replays a recording of received images, schema cineflow.received/1
// (received_modality.hpp: /images [frames][rows][cols] of the pixel type, and the format and
// levels as root attributes), as the raw recorder writes it from an OpenIGTLink stream. Every
// problem throws acquire::SourceError naming the file, the object and what was expected.

#include <filesystem>
#include <memory>
#include <string>

#include "acquire/recording_input.hpp"
#include "received/received_modality.hpp"
#include "received/received_source.hpp"

namespace cineflow::received {

class ReceivedFileSource final : public ReceivedSource {
 public:
  // `frameRateHz`: the replay rate (0: as fast as the consumer takes frames). Throws SourceError,
  // and std::invalid_argument for a negative or non-finite rate.
  explicit ReceivedFileSource(const std::filesystem::path& path, double frameRateHz = 20.0);
  // The same from a recording's bytes held in memory (acquire/recording_input.hpp).
  explicit ReceivedFileSource(const acquire::RecordingInput& input, double frameRateHz = 20.0);
  ~ReceivedFileSource() override;
  ReceivedFileSource(const ReceivedFileSource&) = delete;
  ReceivedFileSource& operator=(const ReceivedFileSource&) = delete;

  const ReceivedFormat& format() const override { return format_; }
  // The levels the recording was shown with.
  std::optional<ReceivedLevels> recordedLevels() const override { return levels_; }
  double frameRateHz() const override { return frameRateHz_; }
  std::uint64_t frameCount() const override { return frames_; }
  void readFrame(std::uint64_t index, std::span<std::byte> dst, acquire::SliceInfo& slice) override;
  acquire::StoredFormat storedFormat() const override;
  std::size_t readStoredFrame(std::uint64_t index, std::span<std::byte> dst,
                              acquire::SliceInfo& slice) override;
  // "name.h5 (32 frames of 640 x 480 uint8, 0.1 x 0.1 mm pixels)"
  std::string describe() const override;

 private:
  struct Handles;  // HDF5 identifiers; HDF5 stays out of this header

  std::filesystem::path path_;
  double frameRateHz_ = 0;
  ReceivedFormat format_;
  ReceivedLevels levels_;
  std::uint64_t frames_ = 0;
  bool interrupted_ = false;
  std::unique_ptr<Handles> handles_;
};

}  // namespace cineflow::received

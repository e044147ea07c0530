#pragma once
// ReceivedSource: a FrameSource of images another system formed (received_format.hpp): an
// OpenIGTLink server's IMAGE stream (igtl_client_source.hpp) or a recording of one
// (received_file_source.hpp). The received modality (received_modality.hpp) shows them.

#include <optional>

#include "acquire/frame_source.hpp"
#include "received/received_format.hpp"

namespace cineflow::received {

class ReceivedSource : public acquire::FrameSource {
 public:
  // Fixed once the source is open.
  virtual const ReceivedFormat& format() const = 0;
  // The levels the images were shown with (a recording's), which the modality's defaults then
  // use; none for a live stream (the pixel type's full range).
  virtual std::optional<ReceivedLevels> recordedLevels() const { return std::nullopt; }

  const modality::Modality& modality() const final;
  std::size_t frameBytes() const final { return format().frameBytes(); }
  int framesPerVolume() const override { return 0; }
};

// `source`'s origin as a received source; null when it is another modality's (or null).
const ReceivedSource* asReceived(const acquire::FrameSource* source);
// The same; throws std::invalid_argument naming the source otherwise.
const ReceivedSource& requireReceived(const acquire::FrameSource& source);

}  // namespace cineflow::received

#pragma once
// IgtlClientSource: the IMAGE stream of an OpenIGTLink server (a PLUS server streaming a
// scanner's or a frame grabber's images, another Cineflow's server) as a received source
// (received_source.hpp): shown, measured and recorded as it arrives, display-only.
//
// Spec: "igtl://HOST[:PORT][#DEVICE]" (port 18944 by default, OpenIGTLink's). Opening connects,
// waits for the first IMAGE (of DEVICE when named, else of whichever device sends first) and
// fixes the format from it: size, pixel type, spacing, and the image's place along its own axes
// (received_format.hpp: x along the columns' direction, z along the rows', from the message's
// origin, its centre, and normals). A receiver thread ("cf-igtl-in") then keeps the connection:
//   - the newest image waits for the engine; one that arrives before the engine took the one
//     before replaces it (counted: "replaced before imaging"), so a slow consumer shows the newest
//     image and never stalls the server;
//   - a lost connection is retried every second (counted), the live status saying so, until the
//     source closes: the run goes on showing nothing new, and resumes with the server;
//   - an image of another size, type, spacing or place ends the run with acquire::SourceChanged
//     saying what changed (the same source opened again follows it: the GUI does so itself);
//   - other messages (STATUS, TRANSFORM, ...), images of other devices and messages whose CRC
//     does not match their body are skipped (the last counted).
// Messages of protocol versions 1 and 2 (with an extended header and metadata) are read. Pixels:
// one scalar of int8, uint8, int16, uint16 or float32, either byte order; three or four uint8
// components (RGB, RGBA video) are shown as their luma (0.299 R + 0.587 G + 0.114 B). 3-D
// images, partial (sub-volume) updates and other types are refused with the reason. The
// connection is the receiver's alone: the engine's thread never touches a socket.

#include <chrono>
#include <memory>
#include <string>

#include "received/received_source.hpp"

namespace cineflow::received {

inline constexpr const char* kIgtlScheme = "igtl://";
inline constexpr int kIgtlDefaultPort = 18944;

struct IgtlEndpoint {
  std::string host;
  int port = kIgtlDefaultPort;
  std::string device;  // empty: the first device that sends an image
  // "igtl://HOST[:PORT][#DEVICE]"; throws acquire::SourceError naming what is wrong.
  static IgtlEndpoint parse(const std::string& spec);
  std::string address() const;  // "HOST:PORT"
};

class IgtlClientSource final : public ReceivedSource {
 public:
  // Connects and waits for the first image, at most `firstImage` (progress hears "waiting for
  // the first image from HOST:PORT" about every 100 ms and may throw to abandon). Throws
  // acquire::SourceError: nothing listening, no image in time, an image it cannot show.
  IgtlClientSource(IgtlEndpoint endpoint, const acquire::ProgressFn& progress = {},
                   std::chrono::milliseconds firstImage = std::chrono::seconds(30));
  ~IgtlClientSource() override;
  IgtlClientSource(const IgtlClientSource&) = delete;
  IgtlClientSource& operator=(const IgtlClientSource&) = delete;

  const ReceivedFormat& format() const override { return format_; }
  double frameRateHz() const override { return 0; }
  std::uint64_t frameCount() const override { return ~std::uint64_t{0}; }
  // Waits for an image newer than the last one taken (throws SourceStopped after
  // stopAcquisition(), SourceChanged once the stream changed its picture, SourceError when it
  // sent an image it cannot show).
  void readFrame(std::uint64_t index, std::span<std::byte> dst, acquire::SliceInfo& slice) override;
  void skipFrame(std::uint64_t index) override;
  // A run starts with the next image that arrives.
  void startAcquisition() override;
  void stopAcquisition() override;
  std::string liveStatus() const override;
  // "images", "replaced before imaging", "reconnections", "damaged messages".
  std::vector<std::pair<std::string, std::uint64_t>> transportCounters() const override;
  // "OpenIGTLink 127.0.0.1:18944, Image_Reference (640 x 480 uint8, 0.1 x 0.1 mm pixels)"
  std::string describe() const override;

  const IgtlEndpoint& endpoint() const { return endpoint_; }

  struct Receiver;  // igtl_client_source.cpp

 private:
  IgtlEndpoint endpoint_;
  ReceivedFormat format_;
  std::unique_ptr<Receiver> receiver_;
};

}  // namespace cineflow::received

#pragma once
// OpenIGTLink's bytes as they arrive, read without trusting them: a message's header and an
// IMAGE's body (protocol versions 1 and 2), for the client source (igtl_client_source.hpp) and
// its fuzz harness (tests/fuzz/fuzz_igtl_message.cpp). libOpenIGTLink's C layer converts the byte
// order and the image's matrix; every size is checked here against the bytes that arrived before
// anything is read.

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

#include "received/received_format.hpp"

namespace cineflow::received {

inline constexpr std::size_t kIgtlHeaderBytes = 58;
// The largest body the client reads: a 16384 x 16384 RGBA image and its headers.
inline constexpr std::uint64_t kIgtlMaxBodyBytes = 16384ull * 16384ull * 4ull + 4096ull;

struct IgtlHeader {
  unsigned version = 0;
  std::string type;    // "IMAGE", "STATUS", ...
  std::string device;  // the sender's device name
  std::uint64_t bodyBytes = 0;
  std::uint64_t crc = 0;
};

// Something in an IMAGE that Cineflow cannot show (its message says what).
class UnshowableImage : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What an IMAGE holds: the picture and where its pixels are in the body.
struct IgtlImage {
  ReceivedFormat format;
  const std::byte* pixels = nullptr;  // in the body given to parseIgtlImage
  int components = 1;                 // 1, or 3 / 4 (RGB(A) of uint8, shown as luma)
  bool bigEndianPixels = false;
};

IgtlHeader parseIgtlHeader(std::span<const std::byte, kIgtlHeaderBytes> bytes);
// Whether `body` (the header's bodyBytes) has the header's CRC-64.
bool crcMatches(const IgtlHeader& header, std::span<const std::byte> body);
// The image of an IMAGE message's `body`; throws UnshowableImage: a 3-D image, a partial update,
// a pixel type or component count Cineflow does not show, sizes the body cannot hold, a spacing
// that is not positive.
IgtlImage parseIgtlImage(const IgtlHeader& header, std::span<const std::byte> body);
// The image's pixels as a received raw frame (received_format.hpp): little-endian scalars, or
// the luma (0.299 R + 0.587 G + 0.114 B, rounded) of RGB(A). `frame` holds
// image.format.frameBytes().
void storeIgtlPixels(const IgtlImage& image, std::span<std::byte> frame);

}  // namespace cineflow::received

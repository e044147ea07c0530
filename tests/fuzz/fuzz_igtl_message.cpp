// Fuzzes what an OpenIGTLink server's bytes decide in the client source
// (received/igtl_wire.hpp): the first 58 bytes are a message header, the rest its body, read as
// an IMAGE (versions 1 and 2) whatever the header's type and CRC say, and the pixels stored as a
// received frame. UnshowableImage is the right answer to an image Cineflow cannot show; anything
// else (a throw, a crash, undefined behaviour, a read past the body, an allocation past
// libFuzzer's limit) is a defect.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "received/igtl_wire.hpp"

using namespace cineflow;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < received::kIgtlHeaderBytes) {
    return 0;
  }
  const auto* bytes = reinterpret_cast<const std::byte*>(data);
  const received::IgtlHeader header = received::parseIgtlHeader(
      std::span<const std::byte, received::kIgtlHeaderBytes>(bytes, received::kIgtlHeaderBytes));
  // The body is what follows, whatever size the header states (the client reads exactly that).
  const std::vector<std::byte> body(bytes + received::kIgtlHeaderBytes, bytes + size);
  (void)received::crcMatches(header, body);
  try {
    const received::IgtlImage image = received::parseIgtlImage(header, body);
    std::vector<std::byte> frame(image.format.frameBytes());
    received::storeIgtlPixels(image, frame);
  } catch (const received::UnshowableImage&) {
    // refused by name: fine
  }
  return 0;
}

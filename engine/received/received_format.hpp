#pragma once
// What a received source's frames are: pictures another system already formed (a scanner's
// B-mode through a PLUS server, another workstation's stream), each a 2-D image of one scalar per
// pixel, as it arrived. The received modality (received_modality.hpp) maps them to the
// pipeline's dB image without reprocessing.
//
// Raw frame: [rows][cols] of `pixel`, little-endian, row-major; row r, column c is the pixel at
// depth z0 + r dz, lateral x0 + c dx (metres), as the sender's image axes place it.

#include <cstddef>
#include <string>
#include <string_view>

#include "process/image_geometry.hpp"

namespace cineflow::received {

enum class PixelType { UInt8, Int8, UInt16, Int16, Float32 };

std::size_t bytesOf(PixelType pixel) noexcept;
const char* toString(PixelType pixel) noexcept;  // "uint8", "int8", "uint16", "int16", "float32"
// The inverse of toString(); throws std::invalid_argument naming the text.
PixelType parsePixelType(std::string_view text);

struct ReceivedFormat {
  int cols = 0, rows = 0;
  PixelType pixel = PixelType::UInt8;
  double dxM = 0, dzM = 0;  // pixel spacing along the columns (lateral) and the rows (depth)
  double x0M = 0, z0M = 0;  // the first pixel's place along the two axes
  std::string device;       // the sender's name for the image stream ("Image_Reference")

  std::size_t pixels() const;
  std::size_t frameBytes() const { return pixels() * bytesOf(pixel); }
  process::ImageGeometry geometry() const;
  // Throws std::invalid_argument naming the first field that cannot describe an image: at least
  // one pixel, at most 16384 per side, spacings positive and finite, places finite.
  void validate() const;
  // Whether `other` is the same picture: size, pixel type, spacing and place (within a
  // thousandth of a pixel, what a sender's float32 fields round to).
  bool samePicture(const ReceivedFormat& other) const;
  // "640 x 480 uint8, 0.1 x 0.1 mm pixels"
  std::string describe() const;
};

// How pixel values map to the pipeline's dB image (received_modality.hpp).
struct ReceivedLevels {
  bool asDb = false;
  double black = 0, white = 255;

  // The pixel type's full range (float32: as dB).
  static ReceivedLevels defaultsFor(PixelType pixel);
  // The command line's and Python's words for levels: "full" (defaultsFor(pixel)), "db" (the
  // values are dB), or "BLACK,WHITE" (the values shown black and white, any real numbers that
  // differ; white may be below black, which inverts the picture). Throws std::invalid_argument
  // naming what was wrong; the result is validated.
  static ReceivedLevels parse(std::string_view text, PixelType pixel);
  // Throws std::invalid_argument unless black and white are finite and differ (when not as dB).
  void validate() const;
  bool operator==(const ReceivedLevels&) const = default;
};

}  // namespace cineflow::received

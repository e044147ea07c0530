#include "received/received_format.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace cineflow::received {
namespace {

constexpr int kMaxSide = 16384;

bool near(double a, double b, double pixel) {
  return std::abs(a - b) <= 1e-3 * pixel;
}

}  // namespace

std::size_t bytesOf(PixelType pixel) noexcept {
  switch (pixel) {
    case PixelType::UInt8:
    case PixelType::Int8:
      return 1;
    case PixelType::UInt16:
    case PixelType::Int16:
      return 2;
    case PixelType::Float32:
      break;
  }
  return 4;
}

const char* toString(PixelType pixel) noexcept {
  switch (pixel) {
    case PixelType::UInt8:
      return "uint8";
    case PixelType::Int8:
      return "int8";
    case PixelType::UInt16:
      return "uint16";
    case PixelType::Int16:
      return "int16";
    case PixelType::Float32:
      break;
  }
  return "float32";
}

PixelType parsePixelType(std::string_view text) {
  for (const PixelType pixel : {PixelType::UInt8, PixelType::Int8, PixelType::UInt16,
                                PixelType::Int16, PixelType::Float32}) {
    if (text == toString(pixel)) {
      return pixel;
    }
  }
  throw std::invalid_argument("pixel type \"" + std::string(text) +
                              "\": expected uint8, int8, uint16, int16 or float32");
}

std::size_t ReceivedFormat::pixels() const {
  return cols > 0 && rows > 0 ? static_cast<std::size_t>(cols) * static_cast<std::size_t>(rows) : 0;
}

process::ImageGeometry ReceivedFormat::geometry() const {
  process::ImageGeometry g;
  g.nx = cols;
  g.nz = rows;
  g.x0 = x0M;
  g.dx = dxM;
  g.z0 = z0M;
  g.dz = dzM;
  return g;
}

void ReceivedFormat::validate() const {
  if (cols < 1 || rows < 1 || cols > kMaxSide || rows > kMaxSide) {
    throw std::invalid_argument("received image: " + std::to_string(cols) + " x " +
                                std::to_string(rows) + " pixels: each side must be 1 to " +
                                std::to_string(kMaxSide));
  }
  if (!(dxM > 0) || !(dzM > 0) || !std::isfinite(dxM) || !std::isfinite(dzM)) {
    throw std::invalid_argument("received image: the pixel spacing must be positive and finite");
  }
  if (!std::isfinite(x0M) || !std::isfinite(z0M)) {
    throw std::invalid_argument("received image: the image's place must be finite");
  }
}

bool ReceivedFormat::samePicture(const ReceivedFormat& other) const {
  return cols == other.cols && rows == other.rows && pixel == other.pixel &&
         near(dxM, other.dxM, dxM) && near(dzM, other.dzM, dzM) && near(x0M, other.x0M, dxM) &&
         near(z0M, other.z0M, dzM);
}

std::string ReceivedFormat::describe() const {
  char text[128];
  std::snprintf(text, sizeof text, "%d x %d %s, %.4g x %.4g mm pixels", cols, rows, toString(pixel),
                dxM * 1e3, dzM * 1e3);
  return text;
}

}  // namespace cineflow::received

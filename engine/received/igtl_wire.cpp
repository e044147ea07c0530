#include "received/igtl_wire.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "received/openigtlink_wire.hpp"

namespace cineflow::received {
namespace {

std::string fixedText(const char* chars, std::size_t size) {
  return std::string(chars, strnlen(chars, size));
}

std::uint16_t bigEndian16(const std::byte* p) {
  return static_cast<std::uint16_t>((std::to_integer<unsigned>(p[0]) << 8) |
                                    std::to_integer<unsigned>(p[1]));
}

std::uint32_t bigEndian32(const std::byte* p) {
  return (std::uint32_t{bigEndian16(p)} << 16) | bigEndian16(p + 2);
}

PixelType pixelTypeOf(unsigned scalarType) {
  switch (scalarType) {
    case IGTL_IMAGE_STYPE_TYPE_UINT8:
      return PixelType::UInt8;
    case IGTL_IMAGE_STYPE_TYPE_INT8:
      return PixelType::Int8;
    case IGTL_IMAGE_STYPE_TYPE_UINT16:
      return PixelType::UInt16;
    case IGTL_IMAGE_STYPE_TYPE_INT16:
      return PixelType::Int16;
    case IGTL_IMAGE_STYPE_TYPE_FLOAT32:
      return PixelType::Float32;
    default:
      break;
  }
  throw UnshowableImage("pixels of OpenIGTLink scalar type " + std::to_string(scalarType) +
                        ": Cineflow shows int8, uint8, int16, uint16 and float32");
}

}  // namespace

IgtlHeader parseIgtlHeader(std::span<const std::byte, kIgtlHeaderBytes> bytes) {
  static_assert(sizeof(igtl_header) == kIgtlHeaderBytes);
  igtl_header raw;
  std::memcpy(&raw, bytes.data(), kIgtlHeaderBytes);
  igtl_header_convert_byte_order(&raw);
  IgtlHeader header;
  header.version = raw.version;
  header.type = fixedText(raw.name, IGTL_HEADER_TYPE_SIZE);
  header.device = fixedText(raw.device_name, IGTL_HEADER_NAME_SIZE);
  header.bodyBytes = raw.body_size;
  header.crc = raw.crc;
  return header;
}

bool crcMatches(const IgtlHeader& header, std::span<const std::byte> body) {
  // The library's crc64 takes a mutable pointer; it only reads.
  auto* bytes = const_cast<unsigned char*>(reinterpret_cast<const unsigned char*>(body.data()));
  return crc64(bytes, body.size(), 0) == header.crc;
}

IgtlImage parseIgtlImage(const IgtlHeader& header, std::span<const std::byte> body) {
  const std::size_t size = body.size();
  std::size_t offset = 0;
  std::size_t content = size;
  if (header.version >= 2) {  // the extended header: its size, the metadata's header and body
    if (size < 12) {
      throw UnshowableImage("an IMAGE of version 2 without its extended header");
    }
    const std::size_t extended = bigEndian16(body.data());
    const std::size_t metaHeader = bigEndian16(body.data() + 2);
    const std::size_t metaData = bigEndian32(body.data() + 4);
    if (extended < 12 || extended + metaHeader + metaData > size) {
      throw UnshowableImage("an IMAGE whose extended header does not fit its body");
    }
    offset = extended;
    content = size - extended - metaHeader - metaData;
  }
  if (content < IGTL_IMAGE_HEADER_SIZE) {
    throw UnshowableImage("an IMAGE shorter than its image header");
  }
  igtl_image_header head;
  std::memcpy(&head, body.data() + offset, IGTL_IMAGE_HEADER_SIZE);
  igtl_image_convert_byte_order(&head);
  if (head.size[2] != 1) {
    throw UnshowableImage("a 3-D image (" + std::to_string(head.size[2]) +
                          " slices): Cineflow shows received 2-D images");
  }
  if (head.subvol_offset[0] != 0 || head.subvol_offset[1] != 0 || head.subvol_offset[2] != 0 ||
      head.subvol_size[0] != head.size[0] || head.subvol_size[1] != head.size[1] ||
      head.subvol_size[2] != head.size[2]) {
    throw UnshowableImage("a partial image (a sub-volume update): Cineflow shows whole images");
  }
  IgtlImage image;
  image.components = head.num_components;
  image.bigEndianPixels = head.endian == IGTL_IMAGE_ENDIAN_BIG;
  ReceivedFormat& f = image.format;
  f.cols = head.size[0];
  f.rows = head.size[1];
  f.device = header.device;
  f.pixel = pixelTypeOf(head.scalar_type);
  const bool luma = (image.components == 3 || image.components == 4) && f.pixel == PixelType::UInt8;
  if (image.components != 1 && !luma) {
    throw UnshowableImage(std::to_string(image.components) + " components of " + toString(f.pixel) +
                          " per pixel: Cineflow shows one scalar, or RGB(A) of uint8");
  }
  const std::size_t pixelBytes =
      f.pixels() * bytesOf(f.pixel) * static_cast<std::size_t>(image.components);
  if (f.pixels() == 0 || content - IGTL_IMAGE_HEADER_SIZE < pixelBytes) {
    throw UnshowableImage("an IMAGE of " + std::to_string(f.cols) + " x " + std::to_string(f.rows) +
                          " pixels whose body does not hold them");
  }
  float spacing[3], origin[3], ni[3], nj[3], nk[3];
  igtl_image_get_matrix(spacing, origin, ni, nj, nk, &head);
  f.dxM = spacing[0] * 1e-3;
  f.dzM = spacing[1] * 1e-3;
  // The first pixel's place along the image's own axes: the origin is the image's centre.
  double first[3];
  for (int a = 0; a < 3; ++a) {
    first[a] = origin[a] - 0.5 * (f.cols - 1) * spacing[0] * ni[a] -
               0.5 * (f.rows - 1) * spacing[1] * nj[a];
  }
  f.x0M = (first[0] * ni[0] + first[1] * ni[1] + first[2] * ni[2]) * 1e-3;
  f.z0M = (first[0] * nj[0] + first[1] * nj[1] + first[2] * nj[2]) * 1e-3;
  try {
    f.validate();
  } catch (const std::invalid_argument& e) {
    throw UnshowableImage(e.what());
  }
  image.pixels = body.data() + offset + IGTL_IMAGE_HEADER_SIZE;
  return image;
}

void storeIgtlPixels(const IgtlImage& image, std::span<std::byte> frame) {
  const std::size_t count = image.format.pixels();
  if (image.components > 1) {
    const auto* in = reinterpret_cast<const std::uint8_t*>(image.pixels);
    const auto step = static_cast<std::size_t>(image.components);
    for (std::size_t i = 0; i < count; ++i) {
      const std::uint8_t* p = in + i * step;
      const double y = 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];
      frame[i] = static_cast<std::byte>(static_cast<std::uint8_t>(std::lround(y)));
    }
    return;
  }
  const std::size_t width = bytesOf(image.format.pixel);
  if (!image.bigEndianPixels || width == 1) {
    std::memcpy(frame.data(), image.pixels, count * width);
    return;
  }
  for (std::size_t i = 0; i < count; ++i) {
    std::reverse_copy(image.pixels + i * width, image.pixels + (i + 1) * width,
                      frame.data() + i * width);
  }
}

}  // namespace cineflow::received

#include "link/igtl_image.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "link/openigtlink.hpp"

namespace cineflow::link {
namespace {

template <typename Message>
std::vector<std::uint8_t> packed(Message& message) {
  message.Pack();
  const auto* bytes = static_cast<const std::uint8_t*>(message.GetPackPointer());
  return {bytes, bytes + message.GetPackSize()};
}

}  // namespace

std::uint8_t displayLevel(float dB, const DisplayMapping& mapping) {
  const double range = std::max(mapping.dynamicRangeDb, 1e-6);
  const double level = (dB - (mapping.gainDb - range)) * 255.0 / range;
  return static_cast<std::uint8_t>(std::clamp(level, 0.0, 255.0));
}

std::vector<std::uint8_t> packImage(const std::string& deviceName, const LinkImage& image,
                                    LinkPixels pixels, const DisplayMapping& mapping) {
  const process::ImageGeometry& g = image.geometry;
  const std::size_t count = g.pixels() * static_cast<std::size_t>(std::max(image.slices, 0));
  if (g.nx <= 0 || g.nz <= 0 || image.slices <= 0 || image.dB.size() < count || !(g.dx > 0) ||
      !(g.dz > 0)) {
    throw std::invalid_argument("OpenIGTLink: an empty or inconsistent image");
  }
  const igtl::ImageMessage::Pointer message = igtl::ImageMessage::New();
  message->SetDeviceName(deviceName.c_str());
  message->SetDimensions(g.nx, g.nz, image.slices);
  const double stepM = image.slices > 1 && image.elevationStepM > 0 ? image.elevationStepM : 1e-3;
  message->SetSpacing(static_cast<float>(g.dx * 1e3), static_cast<float>(g.dz * 1e3),
                      static_cast<float>(stepM * 1e3));
  message->SetScalarType(pixels == LinkPixels::Display8 ? igtl::ImageMessage::TYPE_UINT8
                                                        : igtl::ImageMessage::TYPE_FLOAT32);
  message->SetEndian(igtl::ImageMessage::ENDIAN_LITTLE);
  message->SetCoordinateSystem(igtl::ImageMessage::COORDINATE_RAS);
  float i[3] = {1, 0, 0};
  float j[3] = {0, 0, -1};
  float k[3] = {0, 1, 0};
  message->SetNormals(i, j, k);
  const double centreX = g.x0 + 0.5 * (g.nx - 1) * g.dx;
  const double centreZ = g.z0 + 0.5 * (g.nz - 1) * g.dz;
  const double centreY = image.elevationStartM + 0.5 * (image.slices - 1) * image.elevationStepM;
  message->SetOrigin(static_cast<float>(centreX * 1e3), static_cast<float>(centreY * 1e3),
                     static_cast<float>(-centreZ * 1e3));
  igtl::TimeStamp::Pointer now = igtl::TimeStamp::New();
  now->GetTime();
  message->SetTimeStamp(now);
  message->AllocateScalars();
  if (pixels == LinkPixels::Display8) {
    auto* out = static_cast<std::uint8_t*>(message->GetScalarPointer());
    for (std::size_t p = 0; p < count; ++p) {
      out[p] = displayLevel(image.dB[p], mapping);
    }
  } else {
    std::memcpy(message->GetScalarPointer(), image.dB.data(), count * sizeof(float));
  }
  return packed(*message);
}

std::vector<std::uint8_t> packStatus(const std::string& deviceName, bool ready,
                                     const std::string& text) {
  const igtl::StatusMessage::Pointer message = igtl::StatusMessage::New();
  message->SetDeviceName(deviceName.c_str());
  message->SetCode(ready ? igtl::StatusMessage::STATUS_OK : igtl::StatusMessage::STATUS_NOT_READY);
  message->SetSubCode(0);
  message->SetErrorName(ready ? "" : "NOT_READY");
  message->SetStatusString(text.c_str());
  return packed(*message);
}

}  // namespace cineflow::link

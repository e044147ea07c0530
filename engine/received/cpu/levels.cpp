#include "received/cpu/levels.hpp"

#include <cstdint>
#include <cstring>

#include "compute/cpu/parallel_for.hpp"
#include "received/received_processor.hpp"

namespace cineflow::received::cpu {
namespace {

template <typename T>
void mapPixels(const std::byte* raw, std::size_t count, LevelMap map, float* image) {
  auto body = [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      T value;
      std::memcpy(&value, raw + i * sizeof(T), sizeof(T));
      image[i] = map.scale * static_cast<float>(value) + map.offset;
    }
  };
  compute::cpu::parallelFor(count, 65536, body);
}

}  // namespace

void enqueueLevels(compute::Stream& stream, const std::byte* raw, PixelType pixel,
                   std::size_t count, LevelMap map, float* image) {
  stream.enqueueHost([=] { levels(raw, pixel, count, map, image); });
}

void levels(const std::byte* raw, PixelType pixel, std::size_t count, LevelMap map, float* image) {
  switch (pixel) {
    case PixelType::UInt8:
      return mapPixels<std::uint8_t>(raw, count, map, image);
    case PixelType::Int8:
      return mapPixels<std::int8_t>(raw, count, map, image);
    case PixelType::UInt16:
      return mapPixels<std::uint16_t>(raw, count, map, image);
    case PixelType::Int16:
      return mapPixels<std::int16_t>(raw, count, map, image);
    case PixelType::Float32:
      break;
  }
  mapPixels<float>(raw, count, map, image);
}

}  // namespace cineflow::received::cpu

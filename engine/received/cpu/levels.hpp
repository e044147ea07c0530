#pragma once
// CPU twin of the received images' levels stage (received_processor.hpp holds the contract).

#include <cstddef>

#include "compute/backend.hpp"
#include "received/received_format.hpp"

namespace cineflow::received {
struct LevelMap;
}
namespace cineflow::received::cpu {

// Enqueues image[i] = map.scale * pixel[i] + map.offset for i < count, the pixels of type
// `pixel` read from `raw` (little-endian, host-accessible backend memory), on `stream`.
void enqueueLevels(compute::Stream& stream, const std::byte* raw, PixelType pixel,
                   std::size_t count, LevelMap map, float* image);
// The body of that task, synchronous on the calling thread (and the pool).
void levels(const std::byte* raw, PixelType pixel, std::size_t count, LevelMap map, float* image);

}  // namespace cineflow::received::cpu

#pragma once
// CUDA twin of the received images' levels stage (received/cpu/levels.hpp; the contract in
// received_processor.hpp). Plain C++ declarations; the kernels are compiled only with CUDA.

#include <cstddef>

#include "compute/backend.hpp"
#include "received/received_format.hpp"

namespace cineflow::received {
struct LevelMap;
}
namespace cineflow::received::cuda {

void enqueueLevels(compute::Stream& stream, const std::byte* raw, PixelType pixel,
                   std::size_t count, LevelMap map, float* image);

}  // namespace cineflow::received::cuda

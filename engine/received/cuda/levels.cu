// CUDA twin of received/cpu/levels.cpp: one thread per pixel (grid-stride).

#include <cstdint>

#include "compute/annotate.hpp"
#include "compute/cuda/cuda_check.hpp"
#include "compute/cuda/cuda_stream.hpp"
#include "received/cuda/received_kernels.hpp"
#include "received/received_processor.hpp"

namespace cineflow::received::cuda {
namespace {

template <typename T>
__global__ void levelsKernel(const T* __restrict__ raw, std::size_t count, float scale,
                             float offset, float* __restrict__ image) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    image[i] = scale * static_cast<float>(raw[i]) + offset;
  }
}

template <typename T>
void launch(cudaStream_t s, const std::byte* raw, std::size_t count, LevelMap map, float* image) {
  const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((count + 255) / 256, 4096));
  levelsKernel<T>
      <<<blocks, 256, 0, s>>>(reinterpret_cast<const T*>(raw), count, map.scale, map.offset, image);
  compute::cuda::checkLaunch("levelsKernel", s);
}

}  // namespace

void enqueueLevels(compute::Stream& stream, const std::byte* raw, PixelType pixel,
                   std::size_t count, LevelMap map, float* image) {
  const compute::ScopedRange range("levels");
  const cudaStream_t s = compute::cuda::asCudaStream(stream).get();
  switch (pixel) {
    case PixelType::UInt8:
      return launch<std::uint8_t>(s, raw, count, map, image);
    case PixelType::Int8:
      return launch<std::int8_t>(s, raw, count, map, image);
    case PixelType::UInt16:
      return launch<std::uint16_t>(s, raw, count, map, image);
    case PixelType::Int16:
      return launch<std::int16_t>(s, raw, count, map, image);
    case PixelType::Float32:
      break;
  }
  launch<float>(s, raw, count, map, image);
}

}  // namespace cineflow::received::cuda

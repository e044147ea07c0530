// CUDA version of TaggedProcessor's stage: min and max of the raw frame into pixels 0 and 1.
#include <cuda_runtime.h>

#include <cfloat>

#include "compute/cuda/cuda_check.hpp"
#include "compute/cuda/cuda_stream.hpp"
#include "support/tagged_frames.hpp"

namespace cineflow::test {
namespace {

__global__ void tagKernel(const float* raw, std::size_t count, float* image, std::size_t pixels,
                          long long workNs) {
  __shared__ float lo[256];
  __shared__ float hi[256];
  float myLo = FLT_MAX;
  float myHi = -FLT_MAX;
  for (std::size_t i = threadIdx.x; i < count; i += blockDim.x) {
    myLo = fminf(myLo, raw[i]);
    myHi = fmaxf(myHi, raw[i]);
  }
  lo[threadIdx.x] = myLo;
  hi[threadIdx.x] = myHi;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) {
      lo[threadIdx.x] = fminf(lo[threadIdx.x], lo[threadIdx.x + stride]);
      hi[threadIdx.x] = fmaxf(hi[threadIdx.x], hi[threadIdx.x + stride]);
    }
    __syncthreads();
  }
  for (std::size_t i = threadIdx.x + 2; i < pixels; i += blockDim.x) {
    image[i] = -1.0f;
  }
  if (threadIdx.x == 0) {
    // Simulated stage work, so that a producer can outrun the consumer.
    const long long start = clock64();
    while (workNs > 0 && clock64() - start < workNs * 2) {  // ~2 cycles per ns on these GPUs
    }
    image[0] = lo[0];
    image[1] = hi[0];
  }
}

}  // namespace

void enqueueCudaTag(compute::Stream& stream, const float* raw, std::size_t count, float* image,
                    std::size_t pixels, std::chrono::microseconds work) {
  const cudaStream_t s = compute::cuda::asCudaStream(stream).get();
  tagKernel<<<1, 256, 0, s>>>(raw, count, image, pixels, work.count() * 1000);
  compute::cuda::checkLaunch("tagKernel", s);
}

}  // namespace cineflow::test

// CUDA twin of process/cpu/log_compress.cpp.

#include "compute/annotate.hpp"
#include "compute/cuda/cuda_check.hpp"
#include "compute/cuda/cuda_stream.hpp"
#include "process/cuda/stage_kernels.hpp"

namespace cineflow::process::cuda {
namespace {

__global__ void logCompressKernel(const float* in, float* out,  // may alias: in place is allowed
                                  std::size_t count, float floor) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    out[i] = 20.0f * log10f(fmaxf(in[i], floor));
  }
}

}  // namespace

void enqueueLogCompress(compute::Stream& stream, const float* in, float* out, std::size_t count,
                        float floor) {
  const compute::ScopedRange range("log");
  const cudaStream_t s = compute::cuda::asCudaStream(stream).get();
  const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((count + 255) / 256, 4096));
  logCompressKernel<<<blocks, 256, 0, s>>>(in, out, count, floor);
  compute::cuda::checkLaunch("logCompressKernel", s);
}

}  // namespace cineflow::process::cuda

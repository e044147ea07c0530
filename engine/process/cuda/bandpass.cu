// CUDA twin of process/cpu/bandpass.cpp: zero-phase FIR along fast time.
#include <nvtx3/nvToolsExt.h>

#include <cstdint>

#include "compute/cuda/cuda_check.hpp"
#include "compute/cuda/cuda_stream.hpp"
#include "process/cuda/stage_kernels.hpp"

namespace cineflow::process::cuda {
namespace {

constexpr int kTile = 256;
constexpr int kMaxTaps = 511;

// One block filters kTile outputs of one row: the input tile plus its halo and the taps are staged
// in shared memory, so each input sample is read from global memory about once.
template <class Sample>
__global__ void bandpassKernel(const Sample* __restrict__ raw, const float* __restrict__ taps,
                               int tapCount, int samples, float* __restrict__ out) {
  __shared__ float tapsShared[kMaxTaps];
  __shared__ float tile[kTile + kMaxTaps];
  const int row = blockIdx.y;
  const int start = blockIdx.x * kTile;
  const int half = (tapCount - 1) / 2;
  const Sample* in = raw + static_cast<std::size_t>(row) * samples;
  for (int k = threadIdx.x; k < tapCount; k += blockDim.x) {
    tapsShared[k] = taps[k];
  }
  const int span = kTile + tapCount - 1;
  for (int i = threadIdx.x; i < span; i += blockDim.x) {
    const int n = start - half + i;
    tile[i] = (n >= 0 && n < samples) ? static_cast<float>(in[n]) : 0.0f;
  }
  __syncthreads();
  const int n = start + threadIdx.x;
  if (n >= samples) {
    return;
  }
  float sum = 0.0f;
  for (int k = 0; k < tapCount; ++k) {
    sum = fmaf(tapsShared[k], tile[threadIdx.x + k], sum);
  }
  out[static_cast<std::size_t>(row) * samples + n] = sum;
}

}  // namespace

BandpassKernel::BandpassKernel(compute::Backend& backend, const std::vector<float>& taps,
                               std::size_t rows, std::size_t samples,
                               acquire::SampleType sampleType)
    : taps_(backend, taps.size()), rows_(rows), samples_(samples), sampleType_(sampleType) {
  if (taps.size() > kMaxTaps) {
    throw std::invalid_argument("CUDA bandpass supports at most 511 taps");
  }
  compute::cuda::check(cudaMemcpy(taps_.data(), taps.data(), taps_.bytes(), cudaMemcpyHostToDevice),
                       "uploading bandpass taps", taps_.bytes());
}

void BandpassKernel::enqueue(compute::Stream& stream, const std::byte* raw, float* out) const {
  nvtxRangePushA("bandpass");
  const cudaStream_t s = compute::cuda::asCudaStream(stream).get();
  const dim3 grid(static_cast<unsigned>((samples_ + kTile - 1) / kTile),
                  static_cast<unsigned>(rows_));
  const int tapCount = static_cast<int>(taps_.size());
  const int samples = static_cast<int>(samples_);
  if (sampleType_ == acquire::SampleType::Int16) {
    bandpassKernel<<<grid, kTile, 0, s>>>(reinterpret_cast<const std::int16_t*>(raw), taps_.data(),
                                          tapCount, samples, out);
  } else {
    bandpassKernel<<<grid, kTile, 0, s>>>(reinterpret_cast<const float*>(raw), taps_.data(),
                                          tapCount, samples, out);
  }
  compute::cuda::checkLaunch("bandpassKernel", s);
  nvtxRangePop();
}

}  // namespace cineflow::process::cuda

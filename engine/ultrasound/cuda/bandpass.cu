// CUDA twin of process/cpu/bandpass.cpp: zero-phase interpolating FIR along fast time.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "compute/annotate.hpp"
#include "compute/cuda/cuda_check.hpp"
#include "compute/cuda/cuda_stream.hpp"
#include "ultrasound/cuda/ultrasound_kernels.hpp"

namespace cineflow::ultrasound::cuda {
namespace {

constexpr int kThreads = 256;
constexpr int kTileIn = 128;              // input samples per block and row
constexpr int kMaxPhaseTaps = 511;        // taps of one phase (ImagingParams::firTaps <= 511)
constexpr int kMaxFactor = 8;             // kMaxRfUpsampling
constexpr unsigned kMaxGridRows = 65535;  // grid.y limit: more rows loop

// One block filters kTileIn inputs' worth of outputs (kTileIn U) of rows blockIdx.y, blockIdx.y +
// gridDim.y, ...: the input tile plus its halo is staged in shared memory, so each input sample is
// read from global memory about once. Output m = n U + p sums phase p's taps over
// x[n + offsets[p] + i].
template <class Sample>
__global__ void bandpassKernel(const Sample* __restrict__ raw, const float* __restrict__ taps,
                               const int* __restrict__ offsets, int factor, int perPhase,
                               int minOffset, int span, int samples, int rows,
                               float* __restrict__ out) {
  extern __shared__ float shared[];
  float* tapsShared = shared;                // [factor * perPhase]
  float* tile = shared + factor * perPhase;  // [span]
  __shared__ int offsetsShared[kMaxFactor];
  for (int k = threadIdx.x; k < factor * perPhase; k += blockDim.x) {
    tapsShared[k] = taps[k];
  }
  if (threadIdx.x < factor) {
    offsetsShared[threadIdx.x] = offsets[threadIdx.x];
  }
  const int start = blockIdx.x * kTileIn;
  const int tileOutputs = min(kTileIn, samples - start) * factor;
  const std::size_t outSamples = static_cast<std::size_t>(samples) * factor;
  for (int row = blockIdx.y; row < rows; row += gridDim.y) {
    const Sample* in = raw + static_cast<std::size_t>(row) * samples;
    __syncthreads();  // the previous row's tile is no longer read
    for (int i = threadIdx.x; i < span; i += blockDim.x) {
      const int n = start + minOffset + i;
      tile[i] = (n >= 0 && n < samples) ? static_cast<float>(in[n]) : 0.0f;
    }
    __syncthreads();
    for (int m = threadIdx.x; m < tileOutputs; m += blockDim.x) {
      const int j = m / factor;  // input sample within the tile
      const int p = m - j * factor;
      const float* h = tapsShared + p * perPhase;
      const float* x = tile + j + offsetsShared[p] - minOffset;
      float sum = 0.0f;
      for (int i = 0; i < perPhase; ++i) {
        sum = fmaf(h[i], x[i], sum);
      }
      out[static_cast<std::size_t>(row) * outSamples + static_cast<std::size_t>(start) * factor +
          m] = sum;
    }
  }
}

}  // namespace

BandpassKernel::BandpassKernel(compute::Backend& backend, const PolyphaseFir& fir, std::size_t rows,
                               std::size_t samples, acquire::SampleType sampleType)
    : taps_(backend, fir.taps.size()),
      offsets_(backend, fir.offsets.size()),
      factor_(fir.factor),
      perPhase_(fir.perPhase),
      minOffset_(*std::min_element(fir.offsets.begin(), fir.offsets.end())),
      maxOffset_(*std::max_element(fir.offsets.begin(), fir.offsets.end())),
      rows_(rows),
      samples_(samples),
      sampleType_(sampleType) {
  if (factor_ < 1 || factor_ > kMaxFactor || perPhase_ > kMaxPhaseTaps) {
    throw std::invalid_argument("CUDA bandpass supports at most " + std::to_string(kMaxFactor) +
                                " phases of at most " + std::to_string(kMaxPhaseTaps) + " taps");
  }
  compute::cuda::check(
      cudaMemcpy(taps_.data(), fir.taps.data(), taps_.bytes(), cudaMemcpyHostToDevice),
      "uploading bandpass taps", taps_.bytes());
  compute::cuda::check(
      cudaMemcpy(offsets_.data(), fir.offsets.data(), offsets_.bytes(), cudaMemcpyHostToDevice),
      "uploading bandpass phase offsets", offsets_.bytes());
}

void BandpassKernel::enqueue(compute::Stream& stream, const std::byte* raw, float* out) const {
  const compute::ScopedRange range("bandpass");
  const cudaStream_t s = compute::cuda::asCudaStream(stream).get();
  const dim3 grid(static_cast<unsigned>((samples_ + kTileIn - 1) / kTileIn),
                  static_cast<unsigned>(std::min<std::size_t>(rows_, kMaxGridRows)));
  // The tile covers inputs start + minOffset .. start + kTileIn - 1 + maxOffset + perPhase - 1.
  const int span = kTileIn + (maxOffset_ - minOffset_) + perPhase_ - 1;
  const std::size_t sharedBytes =
      sizeof(float) * (static_cast<std::size_t>(factor_) * perPhase_ + span);
  const int samples = static_cast<int>(samples_);
  const int rows = static_cast<int>(rows_);
  if (sampleType_ == acquire::SampleType::Int16) {
    bandpassKernel<<<grid, kThreads, sharedBytes, s>>>(
        reinterpret_cast<const std::int16_t*>(raw), taps_.data(), offsets_.data(), factor_,
        perPhase_, minOffset_, span, samples, rows, out);
  } else {
    bandpassKernel<<<grid, kThreads, sharedBytes, s>>>(
        reinterpret_cast<const float*>(raw), taps_.data(), offsets_.data(), factor_, perPhase_,
        minOffset_, span, samples, rows, out);
  }
  compute::cuda::checkLaunch("bandpassKernel", s);
}

}  // namespace cineflow::ultrasound::cuda

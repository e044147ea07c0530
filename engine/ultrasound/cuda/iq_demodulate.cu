// CUDA twin of process/cpu/iq_demodulate.cpp: down-mixing, low-pass and decimation along fast
// time, one thread per output sample.
#include <algorithm>
#include <cstdint>

#include "compute/annotate.hpp"
#include "compute/cuda/cuda_check.hpp"
#include "compute/cuda/cuda_stream.hpp"
#include "ultrasound/cuda/das_device.hpp"
#include "ultrasound/cuda/ultrasound_kernels.hpp"

namespace cineflow::ultrasound::cuda {
namespace {

constexpr int kBlockThreads = 256;

// Output k of rows blockIdx.y, blockIdx.y + gridDim.y, ... (das_device.hpp has the sum). Rows
// are short (hundreds to a few thousand samples) and the taps and phasors are shared by all rows,
// so their reads go through the read-only cache.
template <class Sample>
__global__ void __launch_bounds__(kBlockThreads)
    iqDemodulateKernel(const Sample* __restrict__ raw, const float* __restrict__ taps, int tapCount,
                       const float2* __restrict__ phasors, std::size_t rows, int samples,
                       int iqSamples, int decimation, float2* __restrict__ iq) {
  const int k = blockIdx.x * kBlockThreads + threadIdx.x;
  if (k >= iqSamples) {
    return;
  }
  for (std::size_t row = blockIdx.y; row < rows; row += gridDim.y) {
    iq[row * iqSamples + k] =
        demodulateSample(raw + row * samples, taps, tapCount, phasors, samples, k * decimation);
  }
}

}  // namespace

IqDemodulateKernel::IqDemodulateKernel(compute::Backend& backend, const std::vector<float>& taps,
                                       const std::vector<float>& phasors, std::size_t rows,
                                       std::size_t samples, std::size_t iqSamples,
                                       std::size_t decimation, acquire::SampleType sampleType)
    : taps_(backend, taps.size()),
      phasors_(backend, phasors.size()),
      rows_(rows),
      samples_(samples),
      iqSamples_(iqSamples),
      decimation_(decimation),
      sampleType_(sampleType) {
  compute::cuda::check(cudaMemcpy(taps_.data(), taps.data(), taps_.bytes(), cudaMemcpyHostToDevice),
                       "uploading low-pass taps", taps_.bytes());
  compute::cuda::check(
      cudaMemcpy(phasors_.data(), phasors.data(), phasors_.bytes(), cudaMemcpyHostToDevice),
      "uploading mixing phasors", phasors_.bytes());
}

void IqDemodulateKernel::enqueue(compute::Stream& stream, const std::byte* raw, float* iq) const {
  const compute::ScopedRange range("demodulate");
  const cudaStream_t s = compute::cuda::asCudaStream(stream).get();
  // grid.y is limited to 65535: more rows loop inside the kernel.
  const dim3 grid(static_cast<unsigned>((iqSamples_ + kBlockThreads - 1) / kBlockThreads),
                  static_cast<unsigned>(std::min<std::size_t>(rows_, 65535)));
  const auto* phasors = reinterpret_cast<const float2*>(phasors_.data());
  auto* out = reinterpret_cast<float2*>(iq);
  const int tapCount = static_cast<int>(taps_.size());
  const int samples = static_cast<int>(samples_);
  const int iqSamples = static_cast<int>(iqSamples_);
  const int decimation = static_cast<int>(decimation_);
  if (sampleType_ == acquire::SampleType::Int16) {
    iqDemodulateKernel<<<grid, kBlockThreads, 0, s>>>(reinterpret_cast<const std::int16_t*>(raw),
                                                      taps_.data(), tapCount, phasors, rows_,
                                                      samples, iqSamples, decimation, out);
  } else {
    iqDemodulateKernel<<<grid, kBlockThreads, 0, s>>>(reinterpret_cast<const float*>(raw),
                                                      taps_.data(), tapCount, phasors, rows_,
                                                      samples, iqSamples, decimation, out);
  }
  compute::cuda::checkLaunch("iqDemodulateKernel", s);
}

}  // namespace cineflow::ultrasound::cuda

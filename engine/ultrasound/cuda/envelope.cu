// CUDA twin of process/cpu/envelope.cpp: |analytic signal| along z with cuFFT. The columns of the
// [z][x] image are transformed in place of a transpose by strided batched plans (stride nx,
// distance 1): R2C, the Hilbert weights on the half spectrum, C2C inverse, magnitude / N.
#include <cufft.h>

#include <stdexcept>
#include <string>

#include "compute/annotate.hpp"
#include "compute/cuda/cuda_check.hpp"
#include "compute/cuda/cuda_stream.hpp"
#include "compute/cuda/cufft_plan.hpp"
#include "ultrasound/cuda/ultrasound_kernels.hpp"
#include "ultrasound/hilbert_taps.hpp"

namespace cineflow::ultrasound::cuda {
namespace {

using compute::cuda::checkCufft;

// Turns the half spectrum X[k] (rows 0..N/2) into the analytic signal's spectrum:
// k = 0 and k = N/2 (N even) kept, 0 < k < N/2 doubled, k > N/2 zeroed.
__global__ void hilbertWeightsKernel(float2* spectrum, int nz, int nx) {
  const std::size_t count = static_cast<std::size_t>(nz) * nx;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const int k = static_cast<int>(i / nx);
    float scale;
    if (k == 0 || (nz % 2 == 0 && k == nz / 2)) {
      scale = 1.0f;
    } else if (k < (nz + 1) / 2) {
      scale = 2.0f;
    } else {
      scale = 0.0f;
    }
    float2 v = scale == 0.0f ? make_float2(0.0f, 0.0f) : spectrum[i];
    spectrum[i] = make_float2(v.x * scale, v.y * scale);
  }
}

__global__ void magnitudeKernel(const float2* __restrict__ analytic, float* __restrict__ envelope,
                                std::size_t count, float inverseN) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const float2 v = analytic[i];
    envelope[i] = hypotf(v.x, v.y) * inverseN;
  }
}

// "direct": the analytic signal's imaginary part, the circular convolution of each column with
// the Hilbert kernel's taps; a thread per pixel, neighbouring threads reading neighbouring x.
__global__ void quadratureKernel(const float* __restrict__ rf, float* __restrict__ quadrature,
                                 const int* __restrict__ offsets, const float* __restrict__ weights,
                                 int taps, int nz, int nx) {
  const std::size_t count = static_cast<std::size_t>(nz) * nx;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const int z = static_cast<int>(i / nx);
    const int x = static_cast<int>(i % nx);
    float sum = 0.0f;
    for (int t = 0; t < taps; ++t) {
      const int m = offsets[t];
      const int row = z >= m ? z - m : z + nz - m;
      sum = fmaf(weights[t], rf[static_cast<std::size_t>(row) * nx + x], sum);
    }
    quadrature[i] = sum;
  }
}

// envelope = |rf + j quadrature|, element by element (envelope may be rf).
__global__ void directMagnitudeKernel(const float* rf, const float* __restrict__ quadrature,
                                      float* envelope, std::size_t count) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    envelope[i] = hypotf(rf[i], quadrature[i]);
  }
}

unsigned blocksFor(std::size_t count) {
  return static_cast<unsigned>(std::min<std::size_t>((count + 255) / 256, 8192));
}

}  // namespace

EnvelopeKernel::EnvelopeKernel(compute::Backend& backend, std::size_t nz, std::size_t nx)
    : nz_(nz), nx_(nx), spectrumStorage_(backend, 2 * nz * nx) {
  // The taps first: a failure after the plans were made would leak them.
  const HilbertTaps taps = hilbertTaps(nz);
  tapOffsets_ = compute::DeviceBuffer<int>(backend, taps.offsets.size());
  tapWeights_ = compute::DeviceBuffer<float>(backend, taps.weights.size());
  if (!taps.offsets.empty()) {
    compute::cuda::check(cudaMemcpy(tapOffsets_.data(), taps.offsets.data(), tapOffsets_.bytes(),
                                    cudaMemcpyHostToDevice),
                         "uploading Hilbert taps", tapOffsets_.bytes());
    compute::cuda::check(cudaMemcpy(tapWeights_.data(), taps.weights.data(), tapWeights_.bytes(),
                                    cudaMemcpyHostToDevice),
                         "uploading Hilbert taps", tapWeights_.bytes());
  }
  // The columns: nx transforms of nz points, stride nx, one apart.
  const compute::cuda::FftLayout columns{static_cast<int>(nz), static_cast<int>(nx),
                                         static_cast<int>(nx), 1};
  forwardPlan_ = std::make_unique<compute::cuda::CufftPlan>(
      backend, "cufftMakePlanMany (envelope R2C)", columns, CUFFT_R2C);
  inversePlan_ = std::make_unique<compute::cuda::CufftPlan>(
      backend, "cufftMakePlanMany (envelope C2C)", columns, CUFFT_C2C);
}

void EnvelopeKernel::selectVariant(std::size_t index) {
  if (index >= variantNames().size()) {
    throw std::invalid_argument("envelope: no CUDA variant " + std::to_string(index));
  }
  variant_ = index;
}

EnvelopeKernel::~EnvelopeKernel() = default;

void EnvelopeKernel::enqueue(compute::Stream& stream, const float* rf, float* envelope) const {
  const compute::ScopedRange range("envelope");
  const cudaStream_t s = compute::cuda::asCudaStream(stream).get();
  auto* spectrum = reinterpret_cast<float2*>(spectrumStorage_.data());
  const std::size_t count = nz_ * nx_;
  if (variant_ == 1) {
    float* quadrature = spectrumStorage_.data();  // the first nz * nx floats as scratch
    quadratureKernel<<<blocksFor(count), 256, 0, s>>>(
        rf, quadrature, tapOffsets_.data(), tapWeights_.data(),
        static_cast<int>(tapOffsets_.size()), static_cast<int>(nz_), static_cast<int>(nx_));
    compute::cuda::checkLaunch("quadratureKernel", s);
    directMagnitudeKernel<<<blocksFor(count), 256, 0, s>>>(rf, quadrature, envelope, count);
    compute::cuda::checkLaunch("directMagnitudeKernel", s);
    return;
  }
  checkCufft(cufftSetStream(forwardPlan_->get(), s), "cufftSetStream");
  checkCufft(cufftSetStream(inversePlan_->get(), s), "cufftSetStream");
  checkCufft(cufftExecR2C(forwardPlan_->get(), const_cast<float*>(rf),
                          reinterpret_cast<cufftComplex*>(spectrum)),
             "cufftExecR2C");
  hilbertWeightsKernel<<<blocksFor(count), 256, 0, s>>>(spectrum, static_cast<int>(nz_),
                                                        static_cast<int>(nx_));
  compute::cuda::checkLaunch("hilbertWeightsKernel", s);
  checkCufft(cufftExecC2C(inversePlan_->get(), reinterpret_cast<cufftComplex*>(spectrum),
                          reinterpret_cast<cufftComplex*>(spectrum), CUFFT_INVERSE),
             "cufftExecC2C");
  magnitudeKernel<<<blocksFor(count), 256, 0, s>>>(spectrum, envelope, count,
                                                   1.0f / static_cast<float>(nz_));
  compute::cuda::checkLaunch("magnitudeKernel", s);
}

}  // namespace cineflow::ultrasound::cuda

// CUDA twin of process/cpu/iq_beamform.cpp: delay-and-sum of plane-wave I/Q with phase rotation,
// coherent compounding and detection, one thread per pixel. As in the RF kernel, the threads of
// a warp cover consecutive depths of one column, so their samples of a trace lie close together.
#include <stdexcept>
#include <string>
#include <vector>

#include "compute/annotate.hpp"
#include "compute/cuda/cuda_check.hpp"
#include "compute/cuda/cuda_stream.hpp"
#include "ultrasound/cuda/das_device.hpp"
#include "ultrasound/cuda/ultrasound_kernels.hpp"

namespace cineflow::ultrasound::cuda {
namespace {

// The launch variants (IqDasKernel::variantNames): threads per block; 256 is the default.
constexpr int kBlockSizes[] = {256, 128, 512};

// One thread per pixel, z fastest (das_device.hpp has the pixel's work).
template <int kBlockThreads>
__global__ void __launch_bounds__(kBlockThreads)
    iqDasKernel(const float2* __restrict__ iq, float* __restrict__ envelope,
                float2* __restrict__ beamformed, double cyclesPerSample, const DasParams p) {
  const int pixel = blockIdx.x * kBlockThreads + threadIdx.x;
  if (pixel >= p.nx * p.nz) {
    return;
  }
  const int iz = pixel % p.nz;
  const int ix = pixel / p.nz;
  const float2 sum = iqDasSum(iq, cyclesPerSample, p, ix, iz);
  const std::size_t out = static_cast<std::size_t>(iz) * p.nx + ix;
  envelope[out] = hypotf(sum.x, sum.y);
  if (beamformed != nullptr) {
    beamformed[out] = sum;
  }
}

}  // namespace

IqDasKernel::IqDasKernel(const acquire::AcquisitionParams& acq, const ImagingParams& imaging,
                         std::size_t iqSamples)
    : params_(std::make_unique<DasParams>(
          makeDasParams(acq, imaging, acq.samplingFrequencyHz / imaging.iqDecimation,
                        static_cast<int>(iqSamples)))),
      cyclesPerSample_(acq.centerFrequencyHz * imaging.iqDecimation / acq.samplingFrequencyHz) {}

std::vector<std::string> IqDasKernel::variantNames() {
  std::vector<std::string> names;
  for (const int threads : kBlockSizes) {
    names.push_back("thread per pixel, " + std::to_string(threads) + " threads");
  }
  return names;
}

void IqDasKernel::selectVariant(std::size_t index) {
  if (index >= std::size(kBlockSizes)) {
    throw std::invalid_argument("I/Q beamform: no CUDA variant " + std::to_string(index));
  }
  variant_ = index;
}

void IqDasKernel::enqueue(compute::Stream& stream, const float* iq, float* envelope,
                          float* beamformed) const {
  const compute::ScopedRange range("beamform");
  const cudaStream_t s = compute::cuda::asCudaStream(stream).get();
  const DasParams& p = *params_;
  const std::size_t pixels = static_cast<std::size_t>(p.nx) * static_cast<std::size_t>(p.nz);
  const int threads = kBlockSizes[variant_];
  const auto blocks = static_cast<unsigned>((pixels + threads - 1) / threads);
  const auto* input = reinterpret_cast<const float2*>(iq);
  auto* complexOut = reinterpret_cast<float2*>(beamformed);
  switch (threads) {
    case 128:
      iqDasKernel<128><<<blocks, 128, 0, s>>>(input, envelope, complexOut, cyclesPerSample_, p);
      break;
    case 512:
      iqDasKernel<512><<<blocks, 512, 0, s>>>(input, envelope, complexOut, cyclesPerSample_, p);
      break;
    default:
      iqDasKernel<256><<<blocks, 256, 0, s>>>(input, envelope, complexOut, cyclesPerSample_, p);
      break;
  }
  compute::cuda::checkLaunch("iqDasKernel", s);
}

}  // namespace cineflow::ultrasound::cuda

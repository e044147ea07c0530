// CUDA twin of process/cpu/iq_beamform.cpp: delay-and-sum of plane-wave I/Q with phase rotation,
// coherent compounding and detection, one thread per pixel. As in the RF kernel, the threads of
// a warp cover consecutive depths of one column, so their samples of a trace lie close together.
#include "compute/annotate.hpp"
#include "compute/cuda/cuda_check.hpp"
#include "compute/cuda/cuda_stream.hpp"
#include "ultrasound/cuda/das_device.hpp"
#include "ultrasound/cuda/ultrasound_kernels.hpp"

namespace cineflow::process::cuda {
namespace {

constexpr int kBlockThreads = 256;

// One thread per pixel, z fastest (das_device.hpp has the pixel's work).
__global__ void __launch_bounds__(kBlockThreads)
    iqDasKernel(const float2* __restrict__ iq, float* __restrict__ envelope, double cyclesPerSample,
                const DasParams p) {
  const int pixel = blockIdx.x * kBlockThreads + threadIdx.x;
  if (pixel >= p.nx * p.nz) {
    return;
  }
  const int iz = pixel % p.nz;
  const int ix = pixel / p.nz;
  envelope[static_cast<std::size_t>(iz) * p.nx + ix] = iqDasPixel(iq, cyclesPerSample, p, ix, iz);
}

}  // namespace

IqDasKernel::IqDasKernel(const acquire::AcquisitionParams& acq, const ImagingParams& imaging,
                         std::size_t iqSamples)
    : params_(std::make_unique<DasParams>(
          makeDasParams(acq, imaging, acq.samplingFrequencyHz / imaging.iqDecimation,
                        static_cast<int>(iqSamples)))),
      cyclesPerSample_(acq.centerFrequencyHz * imaging.iqDecimation / acq.samplingFrequencyHz) {}

void IqDasKernel::enqueue(compute::Stream& stream, const float* iq, float* envelope) const {
  const compute::ScopedRange range("beamform");
  const cudaStream_t s = compute::cuda::asCudaStream(stream).get();
  const DasParams& p = *params_;
  const std::size_t pixels = static_cast<std::size_t>(p.nx) * static_cast<std::size_t>(p.nz);
  const unsigned blocks = static_cast<unsigned>((pixels + kBlockThreads - 1) / kBlockThreads);
  iqDasKernel<<<blocks, kBlockThreads, 0, s>>>(reinterpret_cast<const float2*>(iq), envelope,
                                               cyclesPerSample_, p);
  compute::cuda::checkLaunch("iqDasKernel", s);
}

}  // namespace cineflow::process::cuda

// CUDA twin of process/cpu/iq_beamform.cpp: delay-and-sum of plane-wave I/Q with phase rotation,
// coherent compounding and detection, one thread per pixel. As in the RF kernel, the threads of
// a warp cover consecutive depths of one column, so their samples of a trace lie close together.
#include <cmath>

#include "compute/annotate.hpp"
#include "compute/cuda/cuda_check.hpp"
#include "compute/cuda/cuda_stream.hpp"
#include "process/cuda/das_device.cuh"
#include "process/cuda/stage_kernels.hpp"

namespace cineflow::process::cuda {
namespace {

constexpr int kBlockThreads = 256;

__global__ void __launch_bounds__(kBlockThreads)
    iqDasKernel(const float2* __restrict__ iq, float* __restrict__ envelope, double cyclesPerSample,
                const DasParams p) {
  const int pixel = blockIdx.x * kBlockThreads + threadIdx.x;
  if (pixel >= p.nx * p.nz) {
    return;
  }
  const int iz = pixel % p.nz;
  const int ix = pixel / p.nz;
  const double x = p.x0 + ix * p.dx;
  const double z = p.z0 + iz * p.dz;
  const double halfAperture = z * p.halfApertureScale;
  const float halfApertureF = static_cast<float>(halfAperture);
  int first = 0;
  int last = 0;
  apertureElements(p, static_cast<float>(x), halfApertureF, first, last);
  const float inverseHalfAperture = 1.0f / halfApertureF;
  const double lastSample = static_cast<double>(p.samples - 1);
  const std::size_t transmitStride = static_cast<std::size_t>(p.elements) * p.samples;
  float sumRe = 0.0f;
  float sumIm = 0.0f;
  for (int e = first; e <= last; ++e) {
    const double lateral = x - p.elementX[e];
    if (!(fabs(lateral) < halfAperture)) {
      continue;
    }
    const float weight = receiveWeight(p, static_cast<float>(lateral) * inverseHalfAperture);
    const double receive = sqrt(fma(lateral, lateral, z * z)) * p.samplesPerMetre;
    const float2* trace = iq + static_cast<std::size_t>(e) * p.samples;
    float partialRe = 0.0f;
    float partialIm = 0.0f;
    for (int t = 0; t < p.transmits; ++t) {
      const double path = fma(z, p.cosSamples[t], fma(x, p.sinSamples[t], receive));
      const double s = path - p.firstSample;
      if (!(s >= 0.0 && s <= lastSample)) {
        continue;
      }
      const int k = min(static_cast<int>(s), p.samples - 2);
      const float fraction = static_cast<float>(s - static_cast<double>(k));
      const float2 a = __ldg(trace + t * transmitStride + k);
      const float2 b = __ldg(trace + t * transmitStride + k + 1);
      const float re = fmaf(fraction, b.x - a.x, a.x);
      const float im = fmaf(fraction, b.y - a.y, a.y);
      // The carrier's phase over the path, reduced to one turn in double before sincospi.
      const double cycles = path * cyclesPerSample;
      const float turn = static_cast<float>(cycles - floor(cycles));
      float sine, cosine;
      sincospif(2.0f * turn, &sine, &cosine);
      partialRe += re * cosine - im * sine;
      partialIm += re * sine + im * cosine;
    }
    sumRe = fmaf(weight, partialRe, sumRe);
    sumIm = fmaf(weight, partialIm, sumIm);
  }
  envelope[static_cast<std::size_t>(iz) * p.nx + ix] =
      hypotf(sumRe, sumIm) / static_cast<float>(p.transmits);
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

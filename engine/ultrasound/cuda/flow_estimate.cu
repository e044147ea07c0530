// CUDA twin of ultrasound/cpu/flow_estimate.cpp: the flow estimator's two passes, a thread per box
// pixel, running the device code of ultrasound/flow_launch.hpp; and the SVD filter's basis (the
// correlation matrix summed by blocks of pixels with double atomics, its eigenvectors by one
// thread: affordable for the ensembles of colour Doppler, N <= 128).
#include "compute/annotate.hpp"
#include "compute/cuda/cuda_check.hpp"
#include "compute/cuda/cuda_stream.hpp"
#include "ultrasound/cuda/ultrasound_kernels.hpp"

namespace cineflow::ultrasound::cuda {
namespace {

constexpr int kThreads = 128;
// Box pixels whose ensembles one block of the correlation kernel holds in shared memory.
constexpr int kCorrelationPixels = 16;

__global__ void __launch_bounds__(kThreads) flowAutocorrelationKernel(const FlowLaunch f) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (i >= f.boxPixels()) {
    return;
  }
  float2 scratch[kMaxEnsemble];
  flowAutocorrelationPixel(f, i, scratch);
}

__global__ void __launch_bounds__(kThreads) flowEstimateKernel(const FlowLaunch f) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (i >= f.boxPixels()) {
    return;
  }
  flowEstimatePixel(f, i);
}

__global__ void zeroKernel(double* values, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) {
    values[i] = 0.0;
  }
}

// Block b sums x x^H over box pixels [b kCorrelationPixels, ...) and adds it to `correlation`.
__global__ void __launch_bounds__(kThreads)
    correlationKernel(const FlowLaunch f, double* correlation) {
  __shared__ float2 ensembles[kCorrelationPixels][kMaxEnsemble];
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * kCorrelationPixels;
  const std::size_t count =
      min(static_cast<std::size_t>(kCorrelationPixels), f.boxPixels() - first);
  const std::size_t framePixels = f.framePixels();
  for (int e = threadIdx.x; e < kCorrelationPixels * f.n; e += kThreads) {
    const int p = e / f.n;
    const int k = e % f.n;
    if (p < static_cast<int>(count)) {
      int ix = 0, iz = 0;
      const std::size_t pixel = boxPixelIndex(f, first + p, ix, iz);
      ensembles[p][k] =
          f.ring[static_cast<std::size_t>((f.oldest + k) % f.n) * framePixels + pixel];
    }
  }
  __syncthreads();
  for (int entry = threadIdx.x; entry < f.n * f.n; entry += kThreads) {
    const int r = entry / f.n;
    const int c = entry % f.n;
    double re = 0, im = 0;
    for (int p = 0; p < static_cast<int>(count); ++p) {
      const float2 a = ensembles[p][r];
      const float2 b = ensembles[p][c];
      re += double(a.x) * b.x + double(a.y) * b.y;
      im += double(a.y) * b.x - double(a.x) * b.y;
    }
    atomicAdd(correlation + 2 * entry, re);
    atomicAdd(correlation + 2 * entry + 1, im);
  }
}

__global__ void svdBasisKernel(const double* correlation, int n, int rank, double* work,
                               float* basis) {
  svdClutterBasis(correlation, n, rank, work, basis);
}

unsigned blocksFor(std::size_t count, int perBlock) {
  return static_cast<unsigned>((count + perBlock - 1) / perBlock);
}

}  // namespace

void enqueueFlowEstimate(compute::Stream& stream, const FlowLaunch& launch) {
  const compute::ScopedRange range("doppler");
  const cudaStream_t s = compute::cuda::asCudaStream(stream).get();
  const unsigned blocks = blocksFor(launch.boxPixels(), kThreads);
  flowAutocorrelationKernel<<<blocks, kThreads, 0, s>>>(launch);
  compute::cuda::checkLaunch("flowAutocorrelationKernel", s);
  flowEstimateKernel<<<blocks, kThreads, 0, s>>>(launch);
  compute::cuda::checkLaunch("flowEstimateKernel", s);
}

void enqueueSvdBasis(compute::Stream& stream, const FlowLaunch& launch, int rank,
                     double* correlation, double* work, float* basis) {
  const compute::ScopedRange range("svd clutter basis");
  const cudaStream_t s = compute::cuda::asCudaStream(stream).get();
  const int entries = 2 * launch.n * launch.n;
  zeroKernel<<<blocksFor(entries, 256), 256, 0, s>>>(correlation, entries);
  compute::cuda::checkLaunch("zeroKernel", s);
  correlationKernel<<<blocksFor(launch.boxPixels(), kCorrelationPixels), kThreads, 0, s>>>(
      launch, correlation);
  compute::cuda::checkLaunch("correlationKernel", s);
  svdBasisKernel<<<1, 1, 0, s>>>(correlation, launch.n, rank, work, basis);
  compute::cuda::checkLaunch("svdBasisKernel", s);
}

}  // namespace cineflow::ultrasound::cuda

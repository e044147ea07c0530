#pragma once
// The CUDA twin of the OCT chain (oct/oct_params.hpp; CPU twin oct/cpu/oct_stages.hpp), with the
// CPU twin's two stages: "background" (each sample's mean over the B-scan) and "transform", in
// three steps that nsys shows as NVTX ranges: "spectra" (background subtraction, resampling
// through the same taps as the CPU, window and dispersion phase: complex [ascans][N]), "fft" (one
// batched cuFFT C2C, in place), "image" (|X|^2 in dB for the kept depths, transposed to [z][x]
// through shared-memory tiles). Owns its device tables, the spectra and the cuFFT plan (its work
// area from the backend), all made in the constructor; the enqueues never allocate or
// synchronise. Declared in every build; defined only when CINEFLOW_HAVE_CUDA (compute/twin.hpp).

#include <cstdint>
#include <memory>

#include "compute/backend.hpp"
#include "compute/buffer.hpp"
#include "oct/oct_params.hpp"

namespace cineflow::compute::cuda {
class CufftPlan;
}

namespace cineflow::oct::cuda {

class OctCudaChain {
 public:
  OctCudaChain(compute::Backend& backend, const OctAcquisition& acquisition,
               const OctParams& params);
  ~OctCudaChain();
  OctCudaChain(const OctCudaChain&) = delete;
  OctCudaChain& operator=(const OctCudaChain&) = delete;

  void enqueueBackground(compute::Stream& stream, const std::uint16_t* raw,
                         float* background) const;
  // Spectra, FFT and dB image: A-scan a into column a, or with `reverse` (a bidirectional scan's
  // right-to-left B-scans) into column columns - 1 - a.
  void enqueueTransform(compute::Stream& stream, const std::uint16_t* raw, const float* background,
                        float* image, bool reverse) const;

 private:
  void enqueueSpectra(compute::Stream& stream, const std::uint16_t* raw,
                      const float* background) const;
  void enqueueFft(compute::Stream& stream) const;
  void enqueueImage(compute::Stream& stream, float* image, bool reverse) const;

  int samples_ = 0, columns_ = 0, first_ = 0, last_ = 0;
  compute::DeviceBuffer<int> tapFirst_;
  compute::DeviceBuffer<float> tapWeights_;  // [N][4]
  compute::DeviceBuffer<float> phaseCos_, phaseSin_;
  // "background": each sample's integer sum over the B-scan (atomics from blocks of A-scans over
  // the whole device), then the mean, which zeroes the sums for the next B-scan.
  compute::DeviceBuffer<unsigned> sums_;            // [N]
  compute::DeviceBuffer<float> spectra_;            // complex [columns][N], interleaved
  std::unique_ptr<compute::cuda::CufftPlan> plan_;  // its work area from the backend
};

}  // namespace cineflow::oct::cuda

#pragma once
// CUDA twins of ultrasound's CPU stage kernels (ultrasound/cpu/*.hpp), behind the same stage
// contracts (ultrasound/bandpass.hpp, beamform.hpp, envelope.hpp, iq_demodulate.hpp,
// iq_beamform.hpp). Kernels live in the .cu files next to this header; these host launchers take a
// stream and device pointers, never synchronise and never allocate after construction. Compiled
// only when CINEFLOW_HAVE_CUDA.

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "acquire/frame.hpp"
#include "compute/backend.hpp"
#include "compute/buffer.hpp"
#include "ultrasound/das_params.hpp"
#include "ultrasound/fir_design.hpp"
#include "ultrasound/flow_launch.hpp"
#include "ultrasound/imaging_params.hpp"

namespace cineflow::compute::cuda {
class CufftPlan;
}

namespace cineflow::ultrasound::cuda {

class BandpassKernel {
 public:
  // `fir`: the filter split into its phases (its factor is the interpolation factor U).
  BandpassKernel(compute::Backend& backend, const PolyphaseFir& fir, std::size_t rows,
                 std::size_t samples, acquire::SampleType sampleType);
  void enqueue(compute::Stream& stream, const std::byte* raw, float* out) const;

 private:
  compute::DeviceBuffer<float> taps_;   // [U][perPhase]
  compute::DeviceBuffer<int> offsets_;  // [U]
  int factor_, perPhase_, minOffset_, maxOffset_;
  std::size_t rows_, samples_;
  acquire::SampleType sampleType_;
};

class DasKernel {
 public:
  // Throws std::invalid_argument when the acquisition exceeds the kernel's table sizes.
  // The traces hold `samples` samples at `sampleRateHz` (the bandpass's output).
  DasKernel(compute::Backend& backend, const acquire::AcquisitionParams& acq,
            const ImagingParams& imaging, double sampleRateHz, std::size_t samples);
  void enqueue(compute::Stream& stream, const float* rf, float* image) const;
  // The launch variants (threads per block; a thread per pixel, or the aperture split across
  // lanes that reduce with shuffles; delays in double, or in split float from per-row tables made
  // once per geometry, or also every pixel-element pair's receive terms from a table made once
  // per geometry, kept across frames); variant 0, the default, picks the lanes that fill the
  // device. Selecting a tabled variant makes its table (up to 1 GiB, within the device memory
  // budget; otherwise the variant runs the split-float kernel); selecting another frees it.
  static std::vector<std::string> variantNames();
  void selectVariant(std::size_t index);  // between frames
  std::size_t variant() const { return variant_; }

 private:
  void makeReceiveTable();

  compute::Backend* backend_;
  std::unique_ptr<DasParams> params_;
  compute::DeviceBuffer<int> splitBase_;  // [transmit][row] (makeTransmitSplitTables)
  compute::DeviceBuffer<float> splitOffset_;
  // The tabled variants' (excess, weight) [ix][element][iz] pairs (das_device.hpp), or empty.
  compute::DeviceBuffer<float> receiveTable_;
  std::size_t variant_ = 0;
};

class EnvelopeKernel {
 public:
  EnvelopeKernel(compute::Backend& backend, std::size_t nz, std::size_t nx);
  ~EnvelopeKernel();
  EnvelopeKernel(const EnvelopeKernel&) = delete;
  EnvelopeKernel& operator=(const EnvelopeKernel&) = delete;
  void enqueue(compute::Stream& stream, const float* rf, float* envelope) const;

  // "cufft": strided batched cuFFT plans; "direct": a thread per pixel sums the Hilbert kernel's
  // taps over its column (ultrasound/hilbert_taps.hpp), faster for short columns. 0 is the
  // default.
  static std::vector<std::string> variantNames() { return {"cufft", "direct"}; }
  void selectVariant(std::size_t index);  // between frames
  std::size_t variant() const { return variant_; }

 private:
  std::size_t nz_, nx_;
  compute::DeviceBuffer<float> spectrumStorage_;           // complex [nz][nx], interleaved re/im
  std::unique_ptr<compute::cuda::CufftPlan> forwardPlan_;  // work areas from the backend
  std::unique_ptr<compute::cuda::CufftPlan> inversePlan_;
  compute::DeviceBuffer<int> tapOffsets_;  // "direct": hilbertTaps(nz)
  compute::DeviceBuffer<float> tapWeights_;
  std::size_t variant_ = 0;
};

class IqDemodulateKernel {
 public:
  // `phasors`: mixingPhasors(acq), 2 * samples floats.
  IqDemodulateKernel(compute::Backend& backend, const std::vector<float>& taps,
                     const std::vector<float>& phasors, std::size_t rows, std::size_t samples,
                     std::size_t iqSamples, std::size_t decimation, acquire::SampleType sampleType);
  void enqueue(compute::Stream& stream, const std::byte* raw, float* iq) const;

 private:
  compute::DeviceBuffer<float> taps_;
  compute::DeviceBuffer<float> phasors_;
  std::size_t rows_, samples_, iqSamples_, decimation_;
  acquire::SampleType sampleType_;
};

class IqDasKernel {
 public:
  IqDasKernel(const acquire::AcquisitionParams& acq, const ImagingParams& imaging,
              std::size_t iqSamples);
  // `beamformed` (complex [nz][nx], or null): the sum before detection, too.
  void enqueue(compute::Stream& stream, const float* iq, float* envelope, float* beamformed) const;
  // Launch variants: a thread per pixel at 256 (the default), 128 or 512 threads per block.
  static std::vector<std::string> variantNames();
  void selectVariant(std::size_t index);  // between frames
  std::size_t variant() const { return variant_; }

 private:
  std::unique_ptr<DasParams> params_;  // at the I/Q rate
  double cyclesPerSample_;             // f0 D / fs
  std::size_t variant_ = 0;
};

// The flow estimator's passes and the SVD filter's basis (ultrasound/cpu/flow_estimate.hpp has
// the CPU twins and their contracts); `work` holds 2 (2n)^2 doubles on the device.
void enqueueFlowEstimate(compute::Stream& stream, const FlowLaunch& launch);
void enqueueSvdBasis(compute::Stream& stream, const FlowLaunch& launch, int rank,
                     double* correlation, double* work, float* basis);

}  // namespace cineflow::ultrasound::cuda

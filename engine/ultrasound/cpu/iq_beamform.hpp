#pragma once
// CPU backend of IqBeamformer (process/iq_beamform.hpp holds the contract).

#include <cstddef>
#include <string>
#include <vector>

#include "acquire/frame.hpp"
#include "compute/backend.hpp"
#include "compute/cpu/isa.hpp"
#include "ultrasound/cpu/das_geometry.hpp"
#include "ultrasound/imaging_params.hpp"

namespace cineflow::ultrasound::cpu {

class IqDasKernel {
 public:
  // acq and imaging must already be validated; `iqSamples` per trace at fs / iqDecimation.
  IqDasKernel(const acquire::AcquisitionParams& acq, const ImagingParams& imaging,
              std::size_t iqSamples);
  // Enqueues the beamforming of `iq` into `envelope` (host-accessible backend memory); the task
  // runs parallelFor over image rows on the stream's thread.
  // `beamformed` (complex [nz][nx], or null): the sum before detection, too.
  void enqueue(compute::Stream& stream, const float* iq, float* envelope, float* beamformed) const;
  void run(const float* iq, float* envelope, float* beamformed) const;
  // "avx512-fused" where the CPU has AVX-512 (ultrasound/cpu/iq_beamform_fused.hpp), then the
  // instruction sets this CPU has (compute/cpu/isa.hpp); 0 is the default.
  static std::vector<std::string> variantNames();
  void selectVariant(std::size_t index);  // between frames
  std::size_t variant() const { return variant_; }

 private:
  DasGeometry g_;           // at the I/Q rate fs / D
  double cyclesPerSample_;  // f0 D / fs: carrier cycles per I/Q sample of path
  std::size_t variant_ = 0;
};

}  // namespace cineflow::ultrasound::cpu

#pragma once
// CPU backend of DasBeamformer (process/beamform.hpp holds the contract).

#include <cstddef>
#include <string>
#include <vector>

#include "acquire/frame.hpp"
#include "compute/backend.hpp"
#include "ultrasound/cpu/das_geometry.hpp"
#include "ultrasound/imaging_params.hpp"

namespace cineflow::ultrasound::cpu {

class DasKernel {
 public:
  // Precomputes the coordinate and angle tables; acq and imaging must already be validated.
  // The traces hold `samples` samples at `sampleRateHz` (the bandpass's output).
  DasKernel(const acquire::AcquisitionParams& acq, const ImagingParams& imaging,
            double sampleRateHz, std::size_t samples);
  // Enqueues the beamforming of `rf` into `image` (host-accessible backend memory); the task runs
  // parallelFor over image rows on the stream's thread.
  void enqueue(compute::Stream& stream, const float* rf, float* image) const;
  // Beamforms synchronously on the calling thread (and the pool): the body of the stream task.
  void run(const float* rf, float* image) const;

  // The variants this CPU runs, fastest expected first: "avx512-fused" (cpu/beamform_fused.hpp)
  // where the CPU has AVX-512, then one per instruction set (compute/cpu/isa.hpp: the same
  // table-based loops compiled for AVX-512, AVX2 + FMA and baseline x86-64); the tuner
  // (tune/tuner.hpp) times them. Variant 0 is the default.
  static std::vector<std::string> variantNames();
  void selectVariant(std::size_t index);  // between frames
  std::size_t variant() const { return variant_; }

 private:
  DasGeometry g_;  // at the RF rate fs
  std::size_t variant_ = 0;
};

}  // namespace cineflow::ultrasound::cpu

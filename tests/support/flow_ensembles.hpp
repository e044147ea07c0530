#pragma once
// Slow-time test signals for the flow estimator (ultrasound/flow_estimator.hpp), shared by its CPU
// test and its CUDA twin's: beamformed I/Q frames made of known parts, and running the estimator
// over them on any backend.

#include <complex>
#include <cstdint>
#include <vector>

#include "acquire/frame.hpp"
#include "compute/backend.hpp"
#include "process/image_geometry.hpp"
#include "ultrasound/doppler_params.hpp"

namespace cineflow::test {

// Frames of complex [nz][nx] pixels: frames[k][pixel].
using ComplexFrames = std::vector<std::vector<std::complex<float>>>;

// What each pixel's slow time holds: a tone of phase step `flowStep` (rad per frame) with a
// random amplitude in [0.5, 1] x flowAmplitude and a random phase per pixel (blood), plus clutter
// common to all pixels in its slow-time shape (tissue moving as one: a tone of step `clutterStep`
// whose amplitude drifts linearly by `clutterDrift` over the ensemble) with a random complex
// amplitude of magnitude clutterAmplitude per pixel, plus complex Gaussian noise of standard
// deviation `noise`. Seeded.
struct SlowTime {
  double flowStep = 1.0, flowAmplitude = 1.0;
  double clutterStep = 0.0, clutterAmplitude = 0.0, clutterDrift = 0.0;
  double noise = 0.0;
};
ComplexFrames makeFrames(const process::ImageGeometry& geometry, int frames, const SlowTime& signal,
                         std::uint64_t seed);

struct FlowRun {
  std::vector<std::vector<float>> flow;  // per frame: [velocity, variance, power][nz][nx]
  std::vector<bool> estimated;           // per frame: FlowEstimator::estimated()
};
// Feeds `frames` through a FlowEstimator configured with (geometry, params, aliasingVelocity) on
// `backend`, frame k with headers[k] (or sequence = sourceIndex = k when `headers` is empty).
FlowRun runFlowEstimator(compute::Backend& backend, const process::ImageGeometry& geometry,
                         const ultrasound::DopplerParams& params, double aliasingVelocity,
                         const ComplexFrames& frames,
                         const std::vector<acquire::FrameHeader>& headers = {});

// A small image grid: nx x nz pixels of 0.1 mm from (0, 10 mm).
process::ImageGeometry flowGrid(int nx, int nz);

}  // namespace cineflow::test

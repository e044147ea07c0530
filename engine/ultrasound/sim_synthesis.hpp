#pragma once
// RF synthesis kernels of the Simulator (simulator.hpp states the signal model). Internal.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "acquire/frame.hpp"
#include "acquire/sim_cache.hpp"
#include "ultrasound/phantom.hpp"

namespace cineflow::ultrasound {
struct SimulatorConfig;
}

namespace cineflow::ultrasound::detail {

// Writes the echoes of `scatterers` for every slice of the sweep into `rf`
// ([slice][transmit][element][sample] floats, elevations.size() slices, elevations increasing).
// Runs on the parallelFor pool; each output line is written by one task with the scatterers in a
// fixed order, so the result does not depend on the number of threads. `progress(fraction)` is
// called on the calling thread between rounds of work.
void synthesiseSweep(const SimulatorConfig& config, const acquire::AcquisitionParams& params,
                     std::span<const Scatterer> scatterers, std::span<const double> elevations,
                     std::span<float> rf, const std::function<void(double)>& progress);

// The cache key of `frames` RF frames of `params` (frameBytes each) made under `configHash`.
acquire::detail::SimCacheKey rfCacheKey(std::uint64_t configHash, acquire::SampleType type,
                                        std::uint64_t frames,
                                        const acquire::AcquisitionParams& params,
                                        std::uint64_t frameBytes);

// Largest |value| in `rf`.
float peakMagnitude(std::span<const float> rf);

// Writes round(scale * (rf + noise)) into `out` as int16 (saturating) or float32, where noise is
// Gaussian with standard deviation `noiseSigma` (rf units), drawn per line from a generator
// seeded by (seed, frame, line) so that it, too, is independent of the thread count.
void quantiseFrame(std::span<const float> rf, std::size_t samplesPerLine, double scale,
                   double noiseSigma, std::uint64_t seed, std::uint64_t frame,
                   acquire::SampleType type, std::span<std::byte> out);

// Quantises `frames` frames of `rf` (frameSamples floats each) into `out` (resized) with one
// scale for all (the peak echo at 1/4 of int16 full scale, so brightness is comparable across
// frames) and config.noise's Gaussian noise at config.noiseDb below the peak. Returns the scale.
double quantiseFrames(const SimulatorConfig& config, std::span<const float> rf, std::size_t frames,
                      std::size_t samplesPerLine, std::size_t frameBytes,
                      std::vector<std::byte>& out);

}  // namespace cineflow::ultrasound::detail

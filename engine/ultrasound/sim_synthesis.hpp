#pragma once
// RF synthesis kernels of the Simulator (simulator.hpp states the signal model). Internal.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>

#include "acquire/frame.hpp"
#include "ultrasound/phantom.hpp"

namespace cineflow::acquire {
struct SimulatorConfig;
}

namespace cineflow::acquire::detail {

// Writes the echoes of `scatterers` for every slice of the sweep into `rf`
// ([slice][transmit][element][sample] floats, elevations.size() slices, elevations increasing).
// Runs on the parallelFor pool; each output line is written by one task with the scatterers in a
// fixed order, so the result does not depend on the number of threads. `progress(fraction)` is
// called on the calling thread between rounds of work.
void synthesiseSweep(const SimulatorConfig& config, const AcquisitionParams& params,
                     std::span<const Scatterer> scatterers, std::span<const double> elevations,
                     std::span<float> rf, const std::function<void(double)>& progress);

// Largest |value| in `rf`.
float peakMagnitude(std::span<const float> rf);

// Writes round(scale * (rf + noise)) into `out` as int16 (saturating) or float32, where noise is
// Gaussian with standard deviation `noiseSigma` (rf units), drawn per line from a generator
// seeded by (seed, frame, line) so that it, too, is independent of the thread count.
void quantiseFrame(std::span<const float> rf, std::size_t samplesPerLine, double scale,
                   double noiseSigma, std::uint64_t seed, std::uint64_t frame, SampleType type,
                   std::span<std::byte> out);

}  // namespace cineflow::acquire::detail

#pragma once
// `cineflow bench ...`: measures the engine (per-stage times, frames/s, host-to-device bandwidth,
// beamformer throughput) on a backend and a preset workload.

namespace cineflow::app {

// argv[0] is the program, argv[1] is "bench". Returns the process exit code.
int runBench(int argc, char** argv);

}  // namespace cineflow::app

#include <cstddef>
#include <cstdint>

namespace cineflow::compute {
class Backend;
}

namespace cineflow::app {

// Pinned host-to-device bandwidth of `frameBytes` copies, GB/s (bench.cpp).
double measureHostToDevice(compute::Backend& backend, std::size_t frameBytes);
// `cineflow bench --modality oct` (bench_oct.cpp): prints the report, returns the exit code.
int runOctBench(compute::Backend& backend, std::uint64_t frames);

}  // namespace cineflow::app

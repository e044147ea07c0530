#pragma once
// `cineflow bench ...`: measures the engine (per-stage times, frames/s, host-to-device bandwidth,
// beamformer throughput) on a backend and a preset workload.

namespace cineflow::app {

// argv[0] is the program, argv[1] is "bench". Returns the process exit code.
int runBench(int argc, char** argv);

}  // namespace cineflow::app

#include <cstddef>
#include <cstdint>
#include <string>

namespace cineflow::compute {
class Backend;
}

namespace cineflow::app {

// Pinned host-to-device bandwidth of `frameBytes` copies, GB/s (bench.cpp).
double measureHostToDevice(compute::Backend& backend, std::size_t frameBytes);
// `cineflow bench --modality oct` (bench_oct.cpp): prints the report, returns the exit code.
int runOctBench(compute::Backend& backend, std::uint64_t frames);
// `cineflow bench --compressed` (bench_compressed.cpp): the workload recorded compressed and
// not, decoded and replayed; prints the report, returns the exit code.
int runCompressedBench(compute::Backend& backend, const std::string& modality,
                       const std::string& preset, std::uint64_t frames);

}  // namespace cineflow::app

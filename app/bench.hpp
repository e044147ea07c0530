#pragma once
// `cineflow bench ...`: measures the engine (per-stage times, frames/s, host-to-device bandwidth,
// beamformer throughput) on a backend and a preset workload.

namespace cineflow::app {

// argv[0] is the program, argv[1] is "bench". Returns the process exit code.
int runBench(int argc, char** argv);

}  // namespace cineflow::app

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace cineflow::compute {
class Backend;
}
namespace cineflow::pipeline {
class Engine;
}
namespace cineflow::tune {
class Tuner;
}

namespace cineflow::app {

// Pinned host-to-device bandwidth of `frameBytes` copies, GB/s (bench.cpp).
double measureHostToDevice(compute::Backend& backend, std::size_t frameBytes);
// Starts `engine` (configured, unpaced, with maxFrames = timed + `warmup`), waits for it to finish
// and returns the seconds from the `warmup`-th completed frame to the end (bench_run.cpp). Takes
// the engine's frame observer. Throws std::runtime_error with the engine's error when it failed.
double timeUnpacedRun(pipeline::Engine& engine, std::uint64_t warmup);
// `cineflow bench --modality oct` (bench_oct.cpp): prints the report, returns the exit code.
// `tuner` (null: every stage's default) picks the stages' variants, as for ultrasound. A
// non-empty `jsonPath` also gets the results as JSON (bench_report.hpp), a non-empty `tracePath`
// the timed run as Chrome trace JSON, as the ultrasound bench writes them.
int runOctBench(compute::Backend& backend, std::uint64_t frames,
                const std::shared_ptr<tune::Tuner>& tuner, const std::string& jsonPath = {},
                const std::string& tracePath = {});
// `cineflow bench --compressed` (bench_compressed.cpp): the workload recorded compressed and
// not, decoded and replayed; prints the report, returns the exit code.
int runCompressedBench(compute::Backend& backend, const std::string& modality,
                       const std::string& preset, std::uint64_t frames);

}  // namespace cineflow::app

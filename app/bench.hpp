#pragma once
// `cineflow bench ...`: measures the engine (per-stage times, frames/s, host-to-device bandwidth,
// beamformer throughput) on a backend and a preset workload.

namespace cineflow::app {

// argv[0] is the program, argv[1] is "bench". Returns the process exit code.
int runBench(int argc, char** argv);

}  // namespace cineflow::app

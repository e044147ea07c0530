#pragma once
// `cineflow bench ...`: measures the engine (per-stage times, frames/s, host-to-device bandwidth,
// beamformer throughput) on a backend and a preset workload.

namespace cineflow::app {

// argv[0] is the program, argv[1] is "bench". Returns the process exit code.
int runBench(int argc, char** argv);

}  // namespace cineflow::app

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace cineflow::compute {
class Backend;
}
namespace cineflow::pipeline {
class Engine;
struct EngineConfig;
}  // namespace cineflow::pipeline
namespace cineflow::tune {
class Tuner;
}

namespace cineflow::app {

// Pinned host-to-device bandwidth of `frameBytes` copies, GB/s (bench.cpp).
double measureHostToDevice(compute::Backend& backend, std::size_t frameBytes);
// Host ring and in-flight slots of every benchmark's engine: a third device slot lets one frame's
// upload run while the engine thread waits for the frame two before it.
constexpr int kBenchHostRingSlots = 8;
constexpr int kBenchInFlightSlots = 3;
// The engine configuration every benchmark times (bench_run.cpp): unpaced, Block, the fastest
// variants however few the frames (no tuning payback), warmup + frames frames, the statistics'
// window over the timed frames, no volumes (a benchmark with sweeps sets framesPerVolume).
pipeline::EngineConfig benchEngineConfig(std::uint64_t frames, std::uint64_t warmup);

// What one timed engine run measured (timeUnpacedRun).
struct TimedRun {
  std::uint64_t framesTimed = 0;  // frames completed inside the timed interval
  double seconds = 0;             // the timed interval
  bool frameObserver = false;     // whether the engine had a frame observer (never, here)
  double framesPerSecond() const { return seconds > 0 ? framesTimed / seconds : 0; }
};
// Starts `engine` (configured, unpaced, with maxFrames = timed + `warmup`) and times it as every
// benchmark does: the interval starts when `warmup` frames are complete and ends when the last
// frame is, both seen by polling Engine::processedFrames() every millisecond on this thread, so
// that no frame observer (a copy of every image to the host and a callback) runs beside the
// chain. `poll` (may be empty) runs at each poll while the engine runs; what it throws stops the
// engine and propagates. Throws std::logic_error when the engine has a frame observer, and
// std::runtime_error with the engine's error when it failed or finished before it could be
// timed. bench_run.cpp.
TimedRun timeUnpacedRun(pipeline::Engine& engine, std::uint64_t warmup,
                        const std::function<void()>& poll = {});
// `cineflow bench --modality oct` (bench_oct.cpp): prints the report, returns the exit code.
// `tuner` (null: every stage's default) picks the stages' variants, as for ultrasound. A
// non-empty `jsonPath` also gets the results as JSON (bench_report.hpp), a non-empty `tracePath`
// the timed run as Chrome trace JSON, as the ultrasound bench writes them.
int runOctBench(compute::Backend& backend, std::uint64_t frames,
                const std::shared_ptr<tune::Tuner>& tuner, const std::string& jsonPath = {},
                const std::string& tracePath = {});
// `cineflow bench --compressed` (bench_compressed.cpp): the workload recorded compressed (in
// blocks of `blockBytes`, 0: the codec's default) and not, decoded and replayed; prints the
// report, returns the exit code.
int runCompressedBench(compute::Backend& backend, const std::string& modality,
                       const std::string& preset, std::uint64_t frames, std::size_t blockBytes = 0);

}  // namespace cineflow::app

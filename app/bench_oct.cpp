// `cineflow bench --modality oct`: the OCT chain through the engine flat out, on B-scans of the
// OCT simulator's sample at 1024 A-scans x 2048 samples (8 distinct B-scans), deposited into the
// host ring as a DMA engine would (DepositedBscans).

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include "base/text_file.hpp"
#include "bench.hpp"
#include "bench_report.hpp"
#include "bench_source.hpp"
#include "compute/backend.hpp"
#include "oct/oct_modality.hpp"
#include "oct/oct_simulator.hpp"
#include "pipeline/engine.hpp"
#include "profile/trace_recorder.hpp"
#include "registry/oct_engine.hpp"
#include "tune/tuner_setup.hpp"

namespace cineflow::app {
namespace {

// The simulator's B-scans as an OCT system's frame grabber deposits them: a host ring slot gets a
// whole B-scan the first time the engine hands it over, and nothing afterwards (as BenchSource
// does for ultrasound), so the benchmark times the engine (upload and stages), not the
// simulator's host copy of 4.2 MB per B-scan, which alone held the engine to about 1800
// B-scans/s on a 16-core host with an H200.
class DepositedBscans final : public oct::OctSource {
 public:
  explicit DepositedBscans(std::unique_ptr<oct::OctSimulator> simulator)
      : simulator_(std::move(simulator)) {}
  const oct::OctAcquisition& acquisition() const override { return simulator_->acquisition(); }
  double frameRateHz() const override { return 0.0; }  // as fast as the engine takes them
  std::uint64_t frameCount() const override { return std::uint64_t{1} << 30; }
  void readFrame(std::uint64_t index, std::span<std::byte> dst,
                 acquire::SliceInfo& slice) override {
    if (filled_.filledBefore(dst.data())) {
      slice = {};
      return;
    }
    simulator_->readFrame(index % simulator_->frameCount(), dst, slice);
  }
  std::string describe() const override {
    return simulator_->describe() + ", each host ring slot filled once";
  }

 private:
  std::unique_ptr<oct::OctSimulator> simulator_;
  FilledSlots filled_;
};

}  // namespace

int runOctBench(compute::Backend& backend, std::uint64_t frames,
                const std::shared_ptr<tune::Tuner>& tuner, const std::string& jsonPath,
                const std::string& tracePath) {
  oct::OctSimulatorConfig config;
  config.ascans = 1024;
  config.bscans = 8;
  config.frameRateHz = 0;  // as fast as the engine takes them
  auto source = std::make_unique<DepositedBscans>(std::make_unique<oct::OctSimulator>(config));
  const oct::OctAcquisition acquisition = source->acquisition();
  const std::size_t frameBytes = source->frameBytes();
  const double h2dGbps = measureHostToDevice(backend, frameBytes);
  const double boundAscans = h2dGbps * 1e9 / frameBytes * acquisition.ascans;

  oct::OctParams params;
  params.a2 = config.a2;
  params.a3 = config.a3;
  const std::uint64_t warmup = 16;
  const pipeline::EngineConfig engineConfig = benchEngineConfig(frames, warmup);
  pipeline::Engine engine(backend, engineConfig);
  engine.setTuner(tuner);
  std::shared_ptr<profile::TraceRecorder> trace;
  if (!tracePath.empty()) {
    trace = std::make_shared<profile::TraceRecorder>();
    engine.setTraceRecorder(trace);
  }
  const std::string description = source->describe();
  engine.setSource(std::move(source));
  oct::setParams(engine, params);
  TimedRun timed;
  try {
    timed = timeUnpacedRun(engine, warmup);
  } catch (const std::runtime_error& e) {
    std::fprintf(stderr, "cineflow: %s\n", e.what());
    return 1;
  }
  const pipeline::EngineStats stats = engine.stats();
  const double bscansPerSecond = timed.framesPerSecond();
  const double ascansPerSecond = bscansPerSecond * acquisition.ascans;
  std::printf("backend: %s\n", backend.deviceName().c_str());
  std::printf("OCT: %d A-scans x %d uint16 samples per B-scan (%.1f MB), %llu B-scans timed\n",
              acquisition.ascans, acquisition.samples, frameBytes / 1e6,
              static_cast<unsigned long long>(timed.framesTimed));
  std::printf("observer      %s\n", timed.frameObserver ? "a frame observer copied every image"
                                                        : "none (no image copied to the host)");
  std::printf("%-12s %10s %10s\n", "stage", "median ms", "p99 ms");
  for (const pipeline::StageStats& stage : stats.stages) {
    std::printf("%-12s %10.3f %10.3f\n", stage.name.c_str(), stage.medianMs, stage.p99Ms);
  }
  std::printf("B-scans/s     %.1f\n", bscansPerSecond);
  std::printf("A-scans/s     %.0f\n", ascansPerSecond);
  std::printf("host-to-device %.2f GB/s: bound %.0f A-scans/s; reached %.1f %% of it\n", h2dGbps,
              boundAscans, 100.0 * ascansPerSecond / boundAscans);
  for (const tune::StageChoice& choice : stats.variants) {
    std::printf("variant       %s\n", tune::describeChoice(choice).c_str());
  }
  if (trace) {
    base::writeFileAtomically(tracePath, trace->chromeJson());
    std::printf("wrote %zu trace spans to %s\n", trace->size(), tracePath.c_str());
  }
  if (!jsonPath.empty()) {
    BenchResults results;
    results.device = backend.deviceName();
    results.backend = compute::toString(backend.kind());
    results.modality = "oct";
    results.preset = "oct";
    results.mode = "oct";
    results.workloadDescription = description;
    results.sampleType = "uint16";
    results.framesRequested = frames;
    results.framesTimed = timed.framesTimed;
    results.frameObserver = timed.frameObserver;
    results.warmupFrames = warmup;
    results.frameBytes = frameBytes;
    const process::ImageGeometry geometry = params.geometry(acquisition);
    results.nx = geometry.nx;
    results.nz = geometry.nz;
    results.samples = acquisition.samples;
    results.h2dGbps = h2dGbps;
    results.seconds = timed.seconds;
    results.stages = stats.stages;
    results.frameMedianMs = stats.frameMedianMs;
    results.variants = stats.variants;
    writeBenchJson(results, jsonPath);
    std::printf("wrote %s\n", jsonPath.c_str());
  }
  return 0;
}

}  // namespace cineflow::app

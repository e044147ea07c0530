#include "bench.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <exception>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>

#include "arg_reader.hpp"
#include "base/text_file.hpp"
#include "bench_report.hpp"
#include "bench_saving.hpp"
#include "bench_source.hpp"
#include "compute/backend.hpp"
#include "compute/buffer.hpp"
#include "device_fill.hpp"
#include "pipeline/engine.hpp"
#include "process/chunk_codec.hpp"
#include "process/mip.hpp"
#include "registry/ultrasound_engine.hpp"
#include "subcommand.hpp"
#include "ultrasound/ultrasound_modality.hpp"

namespace cineflow::app {
namespace {

constexpr std::uint64_t kMaxFrames = 1'000'000;
constexpr std::size_t kMiB = std::size_t{1} << 20;

const char* benchUsage() {
  return R"(Usage: cineflow bench [--backend cpu|cuda] [--preset default|course|disk]
                      [--mode rf|iq|doppler|power-doppler]
                      [--frames N] [--save-volumes DIR] [--trace FILE] [--json FILE]
       cineflow bench --modality oct [--backend cpu|cuda] [--frames N] [--trace FILE]
                      [--json FILE]
       cineflow bench --compressed [--modality oct | --preset default|course] [--backend ...]
                      [--frames N]

Measures the processing engine flat out on frames that a simulated scanner deposits straight
into pinned host memory: per-stage median and p99 times, end-to-end frames/s, pinned
host-to-device and device-to-device bandwidth, and beamformer throughput in points/s
(pixels x elements x transmits per second).

Options (a value follows its option or an '=': --frames 3000 or --frames=3000):
  --backend KIND   auto | cpu | cuda (default auto: CUDA when a usable device exists)
  --preset NAME    default: the simulator's acquisition (int16) on the live GUI's grid
                   course:  3 transmits (-10, 0, +10 deg) x 128 elements x 8183 float32
                            samples (fs 100 MHz, f0 5 MHz, pitch 0.298 mm, 12.6 MB/frame),
                            grid 128 x 128 over x -15..15 mm, z 20..50 mm
                   disk:    the Verasonics rotating disk's acquisition (1 plane wave, 128
                            elements, 334 int16 samples at 6.67 MHz, PRF 10 kHz) on PyMUST's
                            251 x 251 grid, in colour Doppler (32-frame sliding ensemble, no
                            wall filter) unless --mode says otherwise
  --mode MODE      signal chain (default rf): rf, or iq (demodulation, DAS on I/Q, |IQ|), or
                   doppler / power-doppler: the I/Q chain and colour Doppler of its ensembles
                   (16-frame sliding ensemble, regression wall filter of order 1; the default
                   preset's sweep is timed as one plane at a PRF of 5 kHz); the report adds
                   the Doppler estimates (ensembles) per second
  --frames N       frames to time after a warm-up (default 200 on CUDA, 30 on the CPU)
  --save-volumes DIR
                   then run the engine again while volume after volume is buffered and saved
                   (cineflow.volume/1, uncompressed) into DIR, each file deleted once written,
                   and report the frame rate with saving against the rate without (default
                   preset only; use --frames 20000 or more so that many saves overlap the run).
                   Both runs block the source while the host ring is full, so saving costs
                   frames/s and never drops a frame
  --trace FILE     also record the timed engine run as Chrome trace JSON (open it in
                   ui.perfetto.dev): the source's reads, uploads and stages of every frame
  --modality oct   measure the OCT chain instead: B-scans of 1024 A-scans x 2048 uint16 samples
                   (the OCT simulator's sample) through the engine flat out; reports A-scans/s
                   against the host-to-device bound, and each stage's time
  --compressed     measure compressed raw recordings instead: the workload's frames (the
                   simulator for the default preset, the OCT simulator with --modality oct)
                   recorded as bitshuffle + LZ4 and uncompressed in a temporary folder; reports
                   the compression, the decoder's GB/s and both files' replay frames/s beside
                   the host-to-device bound
  --block-size BYTES
                   with --compressed: record with compression blocks of BYTES (default 8192;
                   1024 to 1048576), as `cineflow --record-block-size` does
  --variant STAGE=NAME, --variants FILE
                   run these implementations (`cineflow tune` lists them) instead of the
                   fastest the tuning history remembers (or measures first) for this machine
  --no-tune        run every stage's default implementation (the pinned one where --variant
                   pins it), neither measured nor from the tuning history
  --compare-default
                   then run again with every stage's default implementation and report both
                   frame rates (the tuned pipeline must not be the slower)
  --json FILE      also write the results as JSON
  --help           print this help and exit

Exit status: 0 on success, 1 on a runtime error, 2 on a bad command line.
)";
}

struct BenchOptions {
  bool help = false;
  compute::BackendRequest backend = compute::BackendRequest::Auto;
  std::string preset = "default";
  ultrasound::ImagingMode mode = ultrasound::ImagingMode::Rf;
  bool modeGiven = false;    // the disk preset is colour Doppler unless --mode says otherwise
  std::uint64_t frames = 0;  // 0: the backend's default
  std::string jsonPath;
  std::string saveFolder;  // empty: no saving run
  std::string tracePath;   // empty: no trace
  std::string modality = "ultrasound";
  bool compressed = false;
  std::size_t blockBytes = 0;  // --compressed: the recording's blocks (0: the codec's default)
  bool tune = true;
  bool compareDefault = false;
  tune::VariantPins pins;
};

// Throws std::invalid_argument unless `text` is a whole number in [1, kMaxFrames].
std::uint64_t parseFrameCount(const std::string& text) {
  std::uint64_t frames = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, frames);
  if (ec != std::errc() || ptr != end || frames < 1 || frames > kMaxFrames) {
    throw std::invalid_argument("'" + text + "' is not a frame count in [1, " +
                                std::to_string(kMaxFrames) + "]");
  }
  return frames;
}

// Calls `parse`, prefixing an std::invalid_argument's message with "bench: <option>: ".
template <class Parse>
auto rethrowAs(const ArgReader& args, Parse parse) {
  try {
    return parse();
  } catch (const std::invalid_argument& e) {
    throw args.error(e.what());
  }
}

BenchOptions parseBenchOptions(int argc, char** argv) {
  BenchOptions options;
  ArgReader args(argc, argv, 2, "bench: ");
  while (args.next()) {
    if (args.flag("--help", "-h")) {
      options.help = true;
    } else if (args.option("--backend")) {
      const std::string name = args.value();
      options.backend = rethrowAs(args, [&] { return compute::parseBackendRequest(name); });
    } else if (args.option("--preset")) {
      options.preset = args.value();
      rethrowAs(args, [&] { return benchWorkload(options.preset); });  // a usage error
    } else if (args.option("--mode")) {
      const std::string name = args.value();
      options.mode = rethrowAs(args, [&] { return ultrasound::parseImagingMode(name); });
      options.modeGiven = true;
    } else if (args.option("--frames")) {
      const std::string text = args.value();
      options.frames = rethrowAs(args, [&] { return parseFrameCount(text); });
    } else if (args.option("--json")) {
      options.jsonPath = args.value();
    } else if (args.option("--save-volumes")) {
      options.saveFolder = args.value();
    } else if (args.option("--modality")) {
      options.modality = args.value();
      if (options.modality != "ultrasound" && options.modality != "oct") {
        throw args.error("--modality " + options.modality + ": expected ultrasound or oct");
      }
    } else if (args.option("--trace")) {
      options.tracePath = args.value();
    } else if (args.flag("--compressed")) {
      options.compressed = true;
    } else if (args.option("--block-size")) {
      options.blockBytes = args.number<std::size_t>();
      if (options.blockBytes < process::kMinChunkBlockBytes ||
          options.blockBytes > process::kMaxChunkBlockBytes) {
        throw args.error("--block-size " + std::to_string(options.blockBytes) + ": blocks are " +
                         std::to_string(process::kMinChunkBlockBytes) + " to " +
                         std::to_string(process::kMaxChunkBlockBytes) + " bytes");
      }
    } else if (args.option("--variant")) {
      tune::addPin(options.pins, args.value());
    } else if (args.option("--variants")) {
      for (const auto& [stage, variant] : tune::readPins(args.value())) {
        options.pins[stage] = variant;
      }
    } else if (args.flag("--no-tune")) {
      options.tune = false;
    } else if (args.flag("--compare-default")) {
      options.compareDefault = true;
    } else {
      args.rejectUnknown("see cineflow bench --help");
    }
  }
  if (options.modality == "oct" && !options.saveFolder.empty()) {
    throw std::invalid_argument(
        "bench: --save-volumes times volume saving during ultrasound imaging; the OCT bench "
        "images B-scans without volumes (drop --save-volumes, or --modality oct)");
  }
  if (options.blockBytes > 0 && !options.compressed) {
    throw std::invalid_argument(
        "bench: --block-size is the compressed recording's (add --compressed)");
  }
  if (!options.saveFolder.empty() && benchWorkload(options.preset).acq.framesPerVolume <= 0) {
    throw std::invalid_argument("bench: --save-volumes: the '" + options.preset +
                                "' preset has no volumes (use --preset default)");
  }
  return options;
}

void throwOnStreamError(compute::Stream& stream) {
  const std::string message = stream.takeError();
  if (!message.empty()) {
    throw std::runtime_error("bandwidth measurement: " + message);
  }
}

// Times `repeats` calls of `enqueue(i)` on `stream` between two events, after `warmups` untimed
// calls. Returns seconds.
template <class Enqueue>
double timeOnStream(compute::Backend& backend, compute::Stream& stream, int warmups, int repeats,
                    Enqueue enqueue) {
  const auto start = backend.createEvent();
  const auto stop = backend.createEvent();
  for (int i = 0; i < warmups; ++i) {
    enqueue(i);
  }
  stream.synchronize();
  throwOnStreamError(stream);
  stream.record(*start);
  for (int i = 0; i < repeats; ++i) {
    enqueue(i);
  }
  stream.record(*stop);
  stop->synchronize();
  throwOnStreamError(stream);
  return stop->elapsedMsSince(*start) * 1e-3;
}

}  // namespace

// Pinned host -> device bandwidth of frame-sized copies. The copies rotate through at least
// 64 MiB on both sides, so a CPU backend is not measured out of its caches.
double measureHostToDevice(compute::Backend& backend, std::size_t frameBytes) {
  const std::size_t slots = std::max<std::size_t>(2, (64 * kMiB + frameBytes - 1) / frameBytes);
  compute::PinnedBuffer<std::byte> host(backend, slots * frameBytes);
  compute::DeviceBuffer<std::byte> device(backend, slots * frameBytes);
  for (std::size_t i = 0; i < host.size(); ++i) {  // touches every page, never all zeros
    host.data()[i] = static_cast<std::byte>((i * 131) >> 3);
  }
  const auto repeats = static_cast<int>(
      std::clamp<std::size_t>((512 * kMiB + frameBytes - 1) / frameBytes, 50, 4096));
  const auto stream = backend.createStream("bench-h2d");
  const double seconds =
      timeOnStream(backend, *stream, static_cast<int>(slots), repeats, [&](int i) {
        const std::size_t offset = (static_cast<std::size_t>(i) % slots) * frameBytes;
        stream->copyAsync(device.data() + offset, host.data() + offset, frameBytes);
      });
  return static_cast<double>(frameBytes) * repeats / seconds / 1e9;
}

namespace {

// Device -> device copy bandwidth of a large buffer, counting the bytes read and written.
double measureDeviceToDevice(compute::Backend& backend, std::size_t bytes) {
  compute::DeviceBuffer<std::byte> source(backend, bytes);
  compute::DeviceBuffer<std::byte> destination(backend, bytes);
  const auto stream = backend.createStream("bench-d2d");
  // Real contents (a CPU backend would otherwise read the zero page).
  fillWithPattern(backend, *stream, source.data(), bytes, 4 * kMiB,
                  [](std::size_t i) { return static_cast<std::byte>((i * 131) >> 3); });
  const int repeats = backend.kind() == compute::BackendKind::Cuda ? 50 : 10;
  const double seconds = timeOnStream(backend, *stream, 2, repeats, [&](int) {
    stream->copyAsync(destination.data(), source.data(), bytes);
  });
  return 2.0 * static_cast<double>(bytes) * repeats / seconds / 1e9;
}

// MIP throughput on volumes of `shape`, rotating through at least 256 MiB of volumes so that the
// device's caches do not hold them; fills the volume share of `results`. Bytes counted: the least
// any MIP must move, one read of the volume and the projections written (extra passes or partial
// results count against the kernel, not for it).
void measureMips(compute::Backend& backend, const process::VolumeShape& shape,
                 const std::string& variant, BenchResults& results) {
  const std::size_t volumeFloats = shape.voxels();
  const std::size_t count = std::max<std::size_t>(
      2, (256 * kMiB + volumeFloats * sizeof(float) - 1) / (volumeFloats * sizeof(float)));
  compute::DeviceBuffer<float> volumes(backend, count * volumeFloats);
  compute::DeviceBuffer<float> y(backend, shape.alongY()), z(backend, shape.alongZ()),
      x(backend, shape.alongX());
  const auto stream = backend.createStream("bench-mip");
  fillWithPattern(backend, *stream, volumes.data(), volumes.size(), kMiB, mipVolumePattern);
  process::MipProjector projector;
  projector.configure(backend, shape);
  const std::vector<std::string> variants = projector.variants();
  const auto chosen = std::find(variants.begin(), variants.end(), variant);
  if (chosen != variants.end()) {
    projector.selectVariant(static_cast<std::size_t>(chosen - variants.begin()));
  }
  const int repeats = backend.kind() == compute::BackendKind::Cuda ? 200 : 4;
  const double seconds =
      timeOnStream(backend, *stream, static_cast<int>(count), repeats, [&](int i) {
        const std::size_t which = static_cast<std::size_t>(i) % count;
        projector.enqueue(
            *stream,
            compute::DeviceSpan<const float>(volumes.data() + which * volumeFloats, volumeFloats),
            y.view(), z.view(), x.view());
      });
  results.volumeShape = shape;
  results.mipSecondsPerVolume = seconds / repeats;
  const double bytes = (static_cast<double>(volumeFloats) +
                        static_cast<double>(shape.alongY() + shape.alongZ() + shape.alongX())) *
                       sizeof(float);
  results.mipGbps = bytes / results.mipSecondsPerVolume / 1e9;
}

// What one engine run measured.
struct EngineRun {
  TimedRun timed;
  pipeline::EngineStats stats;
  SavingTotals saving;
};

// Runs warmup + frames frames through the engine flat out, timed by timeUnpacedRun (no frame
// observer). With a `saveFolder`, a ContinuousSaver keeps saving volumes meanwhile (polled every
// millisecond on this thread).
EngineRun runEngine(compute::Backend& backend, const BenchWorkload& workload, std::uint64_t frames,
                    std::uint64_t warmup, const std::string& saveFolder,
                    const std::shared_ptr<tune::Tuner>& tuner,
                    std::shared_ptr<profile::TraceRecorder> trace = nullptr) {
  pipeline::EngineConfig config = benchEngineConfig(frames, warmup);
  // The GUI's cineloop (16 volumes of 16 slices), so that a volume being buffered is not the
  // block the engine writes next.
  config.cineloopFrames = pipeline::EngineConfig{}.cineloopFrames;
  // Volumes as the GUI assembles them: the source's sweeps, MIPs on the endpoint stream.
  config.framesPerVolume = workload.acq.framesPerVolume;

  pipeline::Engine engine(backend, config);
  engine.setTuner(tuner);
  engine.setTraceRecorder(trace);
  engine.setSource(std::make_unique<BenchSource>(workload.acq, workload.sampleType));
  ultrasound::setImaging(engine, workload.imaging);
  std::unique_ptr<ContinuousSaver> saver;
  if (!saveFolder.empty()) {
    saver = std::make_unique<ContinuousSaver>(backend, engine, saveFolder, workload.acq);
  }
  EngineRun run;
  run.timed = timeUnpacedRun(
      engine, warmup,
      saver ? std::function<void()>([&] { saver->poll(); }) : std::function<void()>());
  if (saver) {
    saver->finish();
    run.saving = saver->totals();
  }
  run.stats = engine.stats();
  return run;
}

}  // namespace

namespace {

// The ultrasound bench (or, with --compressed or --modality oct, theirs) on `device`.
int bench(const BenchOptions& options, compute::Backend& device) {
  compute::Backend* const backend = &device;
  const bool cuda = backend->kind() == compute::BackendKind::Cuda;
  if (options.compressed) {
    return runCompressedBench(*backend, options.modality, options.preset,
                              options.frames > 0 ? options.frames : (cuda ? 2000 : 60),
                              options.blockBytes);
  }
  if (options.modality == "oct") {
    const std::shared_ptr<tune::Tuner> tuner = startTuning(*backend, options.pins, options.tune);
    const int status =
        runOctBench(*backend, options.frames > 0 ? options.frames : (cuda ? 2000 : 60), tuner,
                    options.jsonPath, options.tracePath);
    finishTuning(tuner.get());
    return status;
  }
  BenchWorkload workload = benchWorkload(options.preset);
  if (options.modeGiven || options.preset != "disk") {
    workload.imaging.mode = options.mode;
  }
  if (ultrasound::isDoppler(workload.imaging.mode) && workload.acq.framesPerVolume > 0) {
    // The simulator's sweep timed as if it were one plane at 5 kHz: the stages' cost does not
    // depend on what the frames hold.
    workload.acq.framesPerVolume = 0;
    workload.acq.pulseRepetitionFrequencyHz = 5e3;
  }
  workload.imaging.validate(workload.acq);
  const std::uint64_t frames = options.frames > 0 ? options.frames : (cuda ? 200 : 30);
  // The warm-up lets BenchSource fill every host ring slot once (its slow first touch) and
  // fills the in-flight slots, so the timed frames see the steady state.
  const std::uint64_t warmup =
      std::clamp<std::uint64_t>(frames / 10, kBenchHostRingSlots + kBenchInFlightSlots, 20);
  const process::ImageGeometry geometry = workload.imaging.geometry();

  BenchResults results;
  results.device = backend->deviceName();
  results.backend = compute::toString(backend->kind());
  results.preset = workload.preset;
  results.mode = ultrasound::toString(workload.imaging.mode);
  if (ultrasound::isDoppler(workload.imaging.mode)) {
    const ultrasound::DopplerParams& d = workload.imaging.doppler;
    results.dopplerEnsemble = d.ensemble;
    results.dopplerSliding = d.ensembleMode == ultrasound::EnsembleMode::Sliding;
    results.dopplerFilter = ultrasound::toString(d.wallFilter);
  }
  results.workloadDescription = workload.description;
  results.sampleType = acquire::toString(workload.sampleType);
  results.framesRequested = frames;
  results.warmupFrames = warmup;
  results.frameBytes = workload.acq.samplesPerFrame() * acquire::sampleBytes(workload.sampleType);
  results.nx = geometry.nx;
  results.nz = geometry.nz;
  results.elements = workload.acq.elements();
  results.transmits = workload.acq.transmits();
  results.samples = workload.acq.samples;
  results.x0Mm = geometry.x0 * 1e3;
  results.x1Mm = (geometry.x0 + (geometry.nx - 1) * geometry.dx) * 1e3;
  results.z0Mm = geometry.z0 * 1e3;
  results.z1Mm = (geometry.z0 + (geometry.nz - 1) * geometry.dz) * 1e3;

  results.h2dGbps = measureHostToDevice(*backend, results.frameBytes);
  results.d2dBufferBytes = (cuda ? 256 : 64) * kMiB;
  results.d2dGbps = measureDeviceToDevice(*backend, results.d2dBufferBytes);
  std::shared_ptr<profile::TraceRecorder> trace;
  if (!options.tracePath.empty()) {
    trace = std::make_shared<profile::TraceRecorder>();
  }
  const std::shared_ptr<tune::Tuner> tuner = startTuning(*backend, options.pins, options.tune);
  const EngineRun plain = runEngine(*backend, workload, frames, warmup, {}, tuner, trace);
  finishTuning(tuner.get());
  results.variants = plain.stats.variants;
  // The MIPs timed alone with the variant the engine ran (its default when volumes are off).
  std::string mipVariant;
  for (const tune::StageChoice& choice : results.variants) {
    if (choice.stage == "mip") {
      mipVariant = choice.variant;
    }
  }
  const int slices = workload.acq.framesPerVolume > 0 ? workload.acq.framesPerVolume : 16;
  measureMips(*backend, {slices, geometry.nz, geometry.nx}, mipVariant, results);
  if (options.compareDefault) {
    const EngineRun untuned = runEngine(*backend, workload, frames, warmup, {}, nullptr);
    results.defaultFramesPerSecond = untuned.timed.framesPerSecond();
  }
  if (trace) {
    base::writeFileAtomically(options.tracePath, trace->chromeJson());
    std::printf("wrote %zu trace spans to %s\n", trace->size(), options.tracePath.c_str());
  }
  results.framesTimed = plain.timed.framesTimed;
  results.seconds = plain.timed.seconds;
  results.frameObserver = plain.timed.frameObserver;
  results.stages = plain.stats.stages;
  results.volumesTimed = plain.stats.volumes;
  results.frameMedianMs = plain.stats.frameMedianMs;
  results.engineMip = plain.stats.mip;
  if (!options.saveFolder.empty()) {
    const EngineRun saving =
        runEngine(*backend, workload, frames, warmup, options.saveFolder, tuner);
    results.savingRun = true;
    results.savingFramesTimed = saving.timed.framesTimed;
    results.savingSeconds = saving.timed.seconds;
    results.volumesSaved = saving.saving.volumesSaved;
    results.bytesSaved = saving.saving.bytesSaved;
    results.save = pipeline::toStageStats("save", saving.saving.save);
  }

  printBenchTable(results, stdout);
  std::fflush(stdout);
  if (!options.jsonPath.empty()) {
    writeBenchJson(results, options.jsonPath);
    std::printf("wrote %s\n", options.jsonPath.c_str());
  }
  return 0;
}

}  // namespace

int runBench(int argc, char** argv) {
  return runSubcommand<BenchOptions>(
      argc, argv, parseBenchOptions, benchUsage(),
      [](const BenchOptions& options, compute::Backend& device) { return bench(options, device); });
}

}  // namespace cineflow::app

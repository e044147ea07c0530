#include "soak/soak_session.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>
#include <thread>

#include "modality/modality.hpp"
#include "pipeline/engine.hpp"
#include "soak/soak_display.hpp"
#include "store/hdf5_handle.hpp"
#include "store/store_error.hpp"
#include "ultrasound/ultrasound_modality.hpp"

namespace cineflow::app {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kRecorderSlots = 16;  // as the window and the headless mode record
constexpr auto kPollInterval = std::chrono::milliseconds(100);
constexpr double kMemorySamplePeriodS = 1;

// What the frame observer and the raw-frame tap saw; they run on the engine's threads and the
// main thread samples them.
struct PathCounts {
  SequenceTally observed;
  std::uint64_t offered = 0;
  std::uint64_t accepted = 0;
  SequenceTally acceptedSequences;
};

class SharedCounts {
 public:
  void observe(std::uint64_t sequence) {
    std::lock_guard lock(mutex_);
    counts_.observed.see(sequence);
  }
  void offer(std::uint64_t sequence, bool accepted) {
    std::lock_guard lock(mutex_);
    ++counts_.offered;
    if (accepted) {
      ++counts_.accepted;
      counts_.acceptedSequences.see(sequence);
    }
  }
  PathCounts snapshot() const {
    std::lock_guard lock(mutex_);
    return counts_;
  }

 private:
  mutable std::mutex mutex_;
  PathCounts counts_;
};

// The rows' figures while running. They are read one after another, not as one snapshot, so the
// paths may differ by the frames in flight; only the end's counts (after stop()) are exact.
// Downstream is read before upstream (the display before the observer, written before accepted)
// so that the differences shown stay non-negative.
SoakRow sampleRow(const std::string& label, double seconds, const pipeline::Engine& engine,
                  const DisplayConsumer* display, const SharedCounts& counts,
                  store::RawRecorder* recorder, const SoakRow* previous) {
  SoakRow row;
  row.label = label;
  row.seconds = seconds;
  const SequenceTally shown = display != nullptr ? display->tally() : SequenceTally{};
  const store::RecorderStats recorded =
      recorder != nullptr ? recorder->stats() : store::RecorderStats{};
  const PathCounts paths = counts.snapshot();
  const pipeline::EngineStats stats = engine.stats();
  row.produced = stats.acquired;
  row.processed = stats.processed;
  row.displayed = shown.count;
  row.recorded = recorded.written;
  row.dropped = stats.dropped;
  row.recorderDropped = recorded.dropped;
  row.lost = stats.lost;
  row.damaged = stats.damaged;
  row.processedGaps = paths.observed.gaps;
  row.recordedGaps = paths.acceptedSequences.gaps;
  row.displaySkipped = paths.observed.count > shown.count ? paths.observed.count - shown.count : 0;
  row.ringOccupancy = stats.ringOccupancy;
  row.ringSlots = stats.ringSlots;
  row.recorderQueue = paths.accepted > recorded.written ? paths.accepted - recorded.written : 0;
  row.recorderSlots = kRecorderSlots;
  row.recordedBytes = recorded.compressedBytes;
  const ProcessStatus process = processStatus();
  row.rssBytes = process.rssBytes;
  row.threads = process.threads;
  const double since = previous != nullptr ? previous->seconds : 0.0;
  const std::uint64_t before = previous != nullptr ? previous->processed : 0;
  row.framesPerSecond =
      seconds > since ? static_cast<double>(row.processed - before) / (seconds - since) : 0.0;
  return row;
}

// Sleeps until `deadline`, waking early when the engine stopped running or an interrupt came
// (returns false then), and samples the resident memory into `memory` once a second.
class Waiter {
 public:
  Waiter(const pipeline::Engine& engine, const std::atomic<bool>* interrupt,
         std::vector<MemorySample>& memory)
      : engine_(engine), interrupt_(interrupt), memory_(memory), begin_(Clock::now()) {}
  double elapsed() const { return std::chrono::duration<double>(Clock::now() - begin_).count(); }

  bool waitUntil(double seconds) {
    const Clock::time_point deadline = begin_ + std::chrono::duration_cast<Clock::duration>(
                                                    std::chrono::duration<double>(seconds));
    while (Clock::now() < deadline) {
      if (engine_.state() != pipeline::EngineState::Running ||
          (interrupt_ != nullptr && interrupt_->load())) {
        return false;
      }
      if (elapsed() >= static_cast<double>(memory_.size() + 1) * kMemorySamplePeriodS) {
        const ProcessStatus status = processStatus();
        memory_.push_back({elapsed(), status.rssBytes, status.anonBytes, status.fileBytes});
      }
      std::this_thread::sleep_for(
          std::min<Clock::duration>(deadline - Clock::now(), kPollInterval));
    }
    return true;
  }

 private:
  const pipeline::Engine& engine_;
  const std::atomic<bool>* interrupt_;
  std::vector<MemorySample>& memory_;
  Clock::time_point begin_;
};

}  // namespace

SoakWorkload soakWorkload() {
  SoakWorkload workload;
  ultrasound::SimulatorConfig& sim = workload.simulator;
  sim.elements = 64;
  sim.anglesDeg = {0.0};
  sim.maxDepthM = 30e-3;
  // Point targets alone, without speckle or noise, so that most samples are zero and bitshuffle +
  // LZ4 stores a frame in about 7 KB instead of 85: ten minutes at 150 frames/s stay under
  // 0.7 GB. The processing costs the same (no stage looks at the values).
  sim.phantom.speckle = false;
  sim.phantom.pointTargetXM = {0.0};
  sim.noise = false;
  const acquire::AcquisitionParams acq = sim.acquisitionParams();
  workload.imaging =
      ultrasound::ImagingParams::defaultsFor(acq);  // the aperture's width, 5 mm down
  workload.imaging.grid.dx = acq.wavelengthM() / 4;
  workload.imaging.mode = ultrasound::ImagingMode::Rf;
  workload.imaging.validate(acq);
  char line[256];
  std::snprintf(line, sizeof line,
                "simulator: %d elements, one plane wave, %d int16 samples (%.0f mm), %d slices, "
                "point targets only; RF mode on %d x %d pixels",
                sim.elements, acq.samples, sim.maxDepthM * 1e3, sim.slicesPerVolume,
                workload.imaging.grid.nx(), workload.imaging.grid.nz());
  workload.description = line;
  return workload;
}

SessionResult runSession(compute::Backend& backend, const SoakWorkload& workload,
                         const SessionPlan& plan,
                         const std::function<void(const SoakRow&)>& onRow) {
  auto source = std::make_unique<ultrasound::Simulator>(workload.simulator);
  const modality::Modality& modality = source->modality();
  const auto settings = ultrasound::makeSettings(workload.imaging);
  modality.validate(*settings, *source);
  const store::RecordingLayout layout = modality.recordingLayout(*source, *settings);
  SessionResult result;
  result.rawFrameBytes = layout.frameBytes();
  result.imageBytes = modality.geometry(*settings, *source).values() * sizeof(float);

  pipeline::EngineConfig config;  // the window's: 8 host slots, a 256-image cineloop
  config.overflow = plan.policy;
  config.pace = plan.rateHz > 0;
  config.frameRateHz = plan.rateHz;
  store::RawRecorder recorder(plan.recordingPath, layout, plan.compression,
                              plan.policy == pipeline::OverflowPolicy::Block
                                  ? store::RecordPolicy::Block
                                  : store::RecordPolicy::Drop,
                              kRecorderSlots, store::AttributeMap{{"source", source->describe()}});
  SharedCounts counts;
  pipeline::Engine engine(backend, config);
  engine.setSource(std::move(source));
  engine.setSettings(settings);
  engine.setFrameObserver(
      [&counts](const pipeline::CompletedFrame& frame) { counts.observe(frame.header.sequence); });
  engine.setRawFrameTap(std::make_shared<const pipeline::RawFrameTap>(
      [&counts, &recorder](const acquire::FrameHeader& header, std::span<const std::byte> frame) {
        counts.offer(header.sequence, recorder.submit(header, frame));
      }));

  result.memory.reserve(
      static_cast<std::size_t>(plan.samples.back().seconds / kMemorySamplePeriodS) + 2);
  engine.start();
  Waiter waiter(engine, plan.interrupt, result.memory);
  DisplayConsumer display(engine, plan.displayHz);
  for (const SamplePoint& point : plan.samples) {
    const bool reached = waiter.waitUntil(point.seconds);
    result.rows.push_back(sampleRow(reached ? point.label : "stop", waiter.elapsed(), engine,
                                    &display, counts, &recorder,
                                    result.rows.empty() ? nullptr : &result.rows.back()));
    if (onRow) {
      onRow(result.rows.back());
    }
    if (!reached) {
      result.interrupted = plan.interrupt != nullptr && plan.interrupt->load();
      break;
    }
  }

  // Every admitted frame finishes (Block loses none), then the display and the recorder stop.
  engine.stop();
  display.stop();
  engine.setRawFrameTap(nullptr);
  const store::RecorderStats recorded = recorder.stop();
  result.rows.push_back(
      sampleRow("end", waiter.elapsed(), engine, &display, counts, nullptr, nullptr));
  SoakRow& last = result.rows.back();
  last.recorded = recorded.written;
  last.recorderDropped = recorded.dropped;
  last.recorderQueue = 0;
  last.recordedBytes = recorded.compressedBytes;
  last.framesPerSecond = static_cast<double>(last.processed) / last.seconds;  // the whole run's
  if (onRow) {
    onRow(last);
  }

  const pipeline::EngineStats stats = engine.stats();
  const PathCounts paths = counts.snapshot();
  SoakEnd& end = result.end;
  end.engineFailed = stats.state == pipeline::EngineState::Failed;
  end.engineError = stats.error;
  end.recorderError = recorded.error;
  end.produced = stats.acquired;
  end.processed = stats.processed;
  end.dropped = stats.dropped;
  end.lost = stats.lost;
  end.damaged = stats.damaged;
  end.sequenceEnd = stats.acquired + stats.lost;
  end.observed = paths.observed;
  end.displayed = display.tally();
  end.recorderOffered = paths.offered;
  end.recorderAccepted = paths.accepted;
  end.recorded = recorded.written;
  end.recorderDropped = recorded.dropped;
  const RecordedFile file = readRecording(plan.recordingPath, layout.dataset);
  end.fileFrames = file.frames;
  end.file = file.sequences;
  return result;
}

ProcessStatus processStatus() {
  std::ifstream status("/proc/self/status");
  return parseProcessStatus(
      std::string(std::istreambuf_iterator<char>(status), std::istreambuf_iterator<char>()));
}

RecordedFile readRecording(const std::filesystem::path& path, const std::string& dataset) {
  try {
    const store::ErrorScope quiet;
    const store::H5File file(
        store::checkId(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), "open"));
    const store::H5Dataset frames(
        store::checkId(H5Dopen2(file.get(), dataset.c_str(), H5P_DEFAULT), "/" + dataset));
    const store::H5Dataset sequence(
        store::checkId(H5Dopen2(file.get(), "/sequence", H5P_DEFAULT), "/sequence"));
    RecordedFile recorded;
    recorded.frames = store::datasetShape(frames.get()).at(0);
    const std::vector<hsize_t> shape = store::datasetShape(sequence.get());
    std::vector<std::uint64_t> values(shape.at(0));
    if (!values.empty()) {
      store::checkStatus(
          H5Dread(sequence.get(), H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
          "read /sequence");
    }
    for (const std::uint64_t value : values) {
      recorded.sequences.see(value);
    }
    return recorded;
  } catch (const std::exception& e) {
    throw store::StoreError(path.string() + ": " + e.what());
  }
}

}  // namespace cineflow::app

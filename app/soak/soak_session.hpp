#pragma once
// One run of `cineflow soak`'s workload through the engine with the display and the raw recorder
// attached, sampled at given times: the calibration (unthrottled) and the soak itself (paced)
// are both sessions.

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "compute/backend.hpp"
#include "pipeline/engine_types.hpp"
#include "soak/soak_report.hpp"
#include "store/raw_recorder.hpp"
#include "ultrasound/imaging_params.hpp"
#include "ultrasound/simulator.hpp"

namespace cineflow::app {

// The simulator's configuration and the imaging parameters of the soak (soakUsage() says which).
struct SoakWorkload {
  ultrasound::SimulatorConfig simulator;
  ultrasound::ImagingParams imaging;
  std::string description;  // one line for the report
};
SoakWorkload soakWorkload();

struct SamplePoint {
  std::string label;
  double seconds = 0;  // after the engine started
};

struct SessionPlan {
  pipeline::OverflowPolicy policy = pipeline::OverflowPolicy::Block;
  double rateHz = 0;  // the source's pace; 0: unthrottled
  // In increasing time; the last one ends the run.
  std::vector<SamplePoint> samples;
  std::filesystem::path recordingPath;  // must not exist yet
  store::RecordCompression compression = store::RecordCompression::BitshuffleLz4;
  double displayHz = 60;
  // Set (by a signal handler) to end the run at the next check, within 100 ms.
  const std::atomic<bool>* interrupt = nullptr;
};

struct SessionResult {
  std::vector<SoakRow> rows;         // one per sample point taken, then "end"
  std::vector<MemorySample> memory;  // VmRSS once a second while running
  SoakEnd end;
  std::uint64_t rawFrameBytes = 0;
  std::uint64_t imageBytes = 0;
  bool interrupted = false;
};

// Runs the workload on `backend` as `plan` says, calling `onRow` with each row as it is taken.
// Throws for what stops it from starting (a bad configuration, a recording it cannot create); a
// failure while running ends the run early and is reported in the result's end counts.
SessionResult runSession(compute::Backend& backend, const SoakWorkload& workload,
                         const SessionPlan& plan,
                         const std::function<void(const SoakRow&)>& onRow = {});

// VmRSS and threads of this process (0 where /proc/self/status is not readable).
ProcessStatus processStatus();

// What a closed raw recording holds: the frames in its frames dataset `dataset` and the sequence
// numbers in its /sequence, in file order. Throws store::StoreError naming the file.
struct RecordedFile {
  std::uint64_t frames = 0;
  SequenceTally sequences;
};
RecordedFile readRecording(const std::filesystem::path& path, const std::string& dataset);

}  // namespace cineflow::app

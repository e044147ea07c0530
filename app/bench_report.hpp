#pragma once
// The numbers one `cineflow bench` run measured, and their two renderings: a table for people
// and a JSON file for scripts (the manual's figures come from these, house style rule 12
// (docs/development.md)).

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "pipeline/engine_types.hpp"
#include "process/mip.hpp"

namespace cineflow::app {

struct BenchResults {
  // What ran.
  std::string device;                   // backend->deviceName()
  std::string backend;                  // "cpu" | "cuda"
  std::string modality = "ultrasound";  // or "oct" (B-scans for frames, A-scans across nx)
  std::string preset;
  std::string mode;         // "rf" | "iq" | "doppler" | "power-doppler"
  int dopplerEnsemble = 0;  // Doppler modes: frames per estimate (0: not Doppler)
  bool dopplerSliding = true;
  std::string dopplerFilter;
  std::string workloadDescription;
  std::string sampleType;  // "int16" | "float32"
  std::uint64_t framesRequested = 0;
  std::uint64_t framesTimed = 0;  // completions inside the timed interval
  std::uint64_t warmupFrames = 0;
  bool frameObserver = false;  // whether the timed run had a frame observer (TimedRun; never)
  std::size_t frameBytes = 0;
  int nx = 0, nz = 0;
  int elements = 0, transmits = 0, samples = 0;
  double x0Mm = 0, x1Mm = 0, z0Mm = 0, z1Mm = 0;

  // Memory bandwidth, measured in the same run before the engine starts.
  double h2dGbps = 0;  // pinned host -> device, frame-sized copies
  double d2dGbps = 0;  // device -> device, read + write bytes
  std::size_t d2dBufferBytes = 0;

  // Maximum-intensity projections, on their own (MipProjector, volumes rotating through 256 MiB).
  process::VolumeShape volumeShape;
  double mipSecondsPerVolume = 0;
  double mipGbps = 0;  // one read of the volume plus the projections written, per second
  double mipFractionOfD2d() const { return d2dGbps > 0 ? mipGbps / d2dGbps : 0; }

  // The engine.
  double seconds = 0;                        // timed interval
  std::vector<pipeline::StageStats> stages;  // upload, then the processor's stages
  double frameMedianMs = 0;                  // upload start to image complete
  std::uint64_t volumesTimed = 0;            // volumes completed in the run (0: no sweeps)
  pipeline::StageStats engineMip;            // the engine's MIPs per volume, beside the frames
  double framesPerSecond() const;
  double h2dBoundFramesPerSecond() const;  // h2dGbps * 1e9 / frameBytes
  double fractionOfH2dBound() const;       // framesPerSecond / h2dBound
  double beamformMedianMs() const;         // 0 when there is no "beamform" stage
  double beamformPointsPerSecond() const;  // nx * nz * elements * transmits / median
  // Doppler estimates per second: one per frame (sliding) or per N frames (block).
  double ensemblesPerSecond() const;
  // Each tunable stage's implementation and how it was chosen, with every variant's measured
  // time (tune/tuner.hpp); and, with --compare-default, the frame rate of a run with every
  // stage's default implementation (0: not measured).
  std::vector<tune::StageChoice> variants;
  double defaultFramesPerSecond = 0;

  // The engine again while volumes are saved one after another (--save-volumes). Both runs use
  // the Block policy: the source waits for a free ring slot, so what saving costs shows in the
  // frame rate; no frame can be dropped, and none is counted.
  bool savingRun = false;
  std::uint64_t savingFramesTimed = 0;
  double savingSeconds = 0;
  std::uint64_t volumesSaved = 0;
  std::uint64_t bytesSaved = 0;
  pipeline::StageStats save;  // per volume: device-to-host copy and file, VolumeSaver::probe()
  double savingFramesPerSecond() const;
  double saveCostFraction() const;  // 1 - savingFramesPerSecond / framesPerSecond
  double saveMBps() const;          // file bytes written per second of the saving run
};

// The readable report on `out`.
void printBenchTable(const BenchResults& results, std::FILE* out);
// The JSON rendering (keys: device, backend, modality, preset, frames, frame_bytes, nx, nz,
// elements, transmits, h2d_gbps, d2d_gbps, mip_gbps, mip_fraction_of_d2d, frames_per_s,
// h2d_bound_frames_per_s, fraction_of_h2d_bound, beamform_points_per_s, stages [{name, median_ms,
// p99_ms}], frame_observer, engine_mip_median_ms, engine_mip_p99_ms with volumes, with
// --save-volumes also saving_frames_per_s, save_cost_fraction, volumes_saved, save_mb_per_s,
// save_median_ms, save_p99_ms, and a few descriptive extras).
std::string benchJson(const BenchResults& results);
// Writes benchJson() to `path` through a temporary file, synced and renamed
// (base::writeFileAtomically), so neither a failed write nor a crash leaves a partial file under
// that name. Throws std::runtime_error naming the path.
void writeBenchJson(const BenchResults& results, const std::string& path);

}  // namespace cineflow::app

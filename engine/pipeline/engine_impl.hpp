#pragma once
// Engine internals shared by engine.cpp (control) and engine_loops.cpp (the two threads). The
// engine keeps the public API, the state machine and the settings queue; a run's threads, slots
// and counters are its session (engine_session.hpp); statistics, tracing and the raw tap are
// collaborators with their own locks.

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "pipeline/engine.hpp"
#include "pipeline/engine_session.hpp"
#include "pipeline/engine_statistics.hpp"
#include "pipeline/engine_trace.hpp"
#include "pipeline/host_ring.hpp"
#include "pipeline/raw_tap.hpp"
#include "pipeline/volume_assembler.hpp"
#include "process/chunk_decoder.hpp"

namespace cineflow::pipeline {

// Host steady clock in nanoseconds: FrameHeader::timestampNs, latency and trace times.
std::int64_t nowNs();

struct Engine::Impl {
  Impl(compute::Backend& backend, EngineConfig config, Cineloop& cineloop);

  // Control (engine.cpp).
  // Makes the run's session, with every buffer and choice in place (no thread started).
  void configureForStart();
  void joinThreads();
  // Failed keeps `error`, and `sourceChange` when the source's picture changed.
  void setState(EngineState next, const std::string& error = {},
                const std::string& sourceChange = {});
  void fail(const std::string& message, const std::string& sourceChange = {});
  // The current run (null before the first start), for a thread other than the run's.
  std::shared_ptr<EngineSession> currentSession() const;

  // Threads (engine_loops.cpp); `run` is the session they belong to.
  void acquisitionLoop(EngineSession& run);
  void engineLoop(EngineSession& run);
  // The next filled host slot for the engine thread (-1: the run is over): the oldest, or under
  // the Latest policy the newest that starts a unit, the older ones counted as skipped.
  int takeNext(EngineSession& run);
  void applyPendingSettings(EngineSession& run);
  void dispatch(EngineSession& run, int hostSlot, InFlightSlot& slot);
  void collect(EngineSession& run, InFlightSlot& slot);
  void collectMipTimings();  // the volumes whose MIPs completed: statistics and trace, no wait
  void drain(EngineSession& run);
  void throwOnStreamError();
  // Reads frame `index` into ring slot `hostSlot`: staged as stored when the source hands over
  // compressed frames, else decoded; then gives it to the raw-frame tap (decoded). Throws
  // acquire::DamagedFrameError for a damaged frame.
  void readIntoSlot(std::uint64_t index, int hostSlot, acquire::FrameHeader& header);
  // A damaged frame under DamagedFramePolicy::Skip: counted, `why` kept.
  void noteDamaged(EngineSession& run, const std::string& why);
  // After the frame in `slot` completed: a staged frame the decoder found damaged is reported
  // (Stop: throws std::runtime_error naming the frame) or counted (Skip).
  void checkDecoded(EngineSession& run, const InFlightSlot& slot);
  // Slice index of a frame within its sweep (framesPerVolume > 0).
  int sliceOf(const acquire::FrameHeader& header) const;
  // Reconfigures volumes and cineloop for `geometry` (volumes first: they point into the loop).
  void configureImageStorage();
  // Chooses the processor's variants with `tuner` (none: defaults), measuring when `mayMeasure`
  // (every stage again when `remeasure`, and a stage that drifted since the last start), into
  // the statistics (which rebuild their drift watches). With nothing in flight.
  void tuneStages(bool mayMeasure, bool remeasure);
  // Sizes the slots' stage marks and the statistics' stage rows for the processor's stages
  // (with nothing in flight: at start, or after a reconfiguration changed them, e.g. RF to I/Q).
  void adoptStageNames(EngineSession& run);
  bool stageNamesChanged() const;
  // Rows before the processor's stages: "upload", and "decode" in a compressed replay.
  std::size_t firstProcessorRow() const;

  compute::Backend& backend;
  EngineConfig config;
  Cineloop& cineloop;
  std::unique_ptr<acquire::FrameSource> source;
  std::mutex sourceMutex;  // held where source is replaced, and where another thread reads it
  // The source's count of lost frames by why at the run's start, or at setSource (sourceMutex).
  acquire::LostFrames lostByKindAtStart;
  std::unique_ptr<modality::FrameProcessor> processor;
  FrameObserver observer;
  DiscardObserver discardObserver;
  process::VolumeCallback volumeCallback;
  process::ImageGeometry geometry;

  // The processor was made by the engine for this modality (null: set by setProcessor()).
  const modality::Modality* processorModality = nullptr;

  mutable std::mutex settingsMutex;
  std::shared_ptr<const modality::ProcessingSettings> settings;         // null: defaults at start()
  std::shared_ptr<const modality::ProcessingSettings> pendingSettings;  // for the next frame
  std::atomic<OverflowPolicy> overflow;
  std::atomic<DamagedFramePolicy> damagedPolicy;
  std::atomic<double> frameRateHz{0.0};  // live pacing override (config.frameRateHz at setConfig)

  // snapshotRaw(): the caller sizes `snapshot` and raises the request; the engine thread copies
  // the next frame it dispatches into it.
  std::mutex snapshotMutex;
  std::condition_variable snapshotTaken;
  bool snapshotRequested = false;  // snapshotMutex
  std::vector<std::byte>* snapshot = nullptr;
  acquire::FrameHeader* snapshotHeader = nullptr;
  process::ChunkScratch snapshotScratch;  // the engine thread's: a staged frame for snapshotRaw

  // Measured choice of implementation (tune/tuner.hpp).
  std::shared_ptr<tune::Tuner> tuner;
  std::vector<std::string> driftedStages;  // the engine thread's: measured again at next start
  std::atomic<bool> retuneRequested{false};

  EngineStatistics statistics;
  EngineTrace trace;
  RawTap rawTap;
  std::vector<std::string> stageRows;  // the engine thread's copy of the statistics' rows
  std::vector<double> stageMs;         // the engine thread's: one frame's times, by row

  HostRing ring;
  // A compressed replay (source->storedFormat(), codec not None): frames travel staged and are
  // decoded on the compute stream before the modality's stages (stage "decode").
  acquire::StoredFormat stored;
  process::ChunkDecoder decoder;
  process::ChunkLayout stageLayout;  // the acquisition thread's
  VolumeAssembler volumes;
  std::atomic<int> framesPerVolume{0};  // in effect since the last start

  mutable std::mutex stateMutex;
  std::condition_variable stateChanged;
  EngineState state = EngineState::Stopped;
  std::string error;
  std::string sourceChange;  // EngineStats::sourceChange

  // The current run's session: replaced by start() (under sessionMutex, with no thread of the
  // previous run left); its threads hold it by reference.
  mutable std::mutex sessionMutex;
  std::shared_ptr<EngineSession> session;

  // Last: destroyed first, after the session's threads were joined.
  std::unique_ptr<compute::Stream> upload, compute, notify;  // notify: host callbacks only
  std::unique_ptr<compute::Stream> endpoint;                 // volumes: MIPs and callbacks' work
};

}  // namespace cineflow::pipeline

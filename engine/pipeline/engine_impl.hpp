#pragma once
// Engine internals shared by engine.cpp (control) and engine_loops.cpp (the two threads).

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "pipeline/engine.hpp"
#include "pipeline/host_ring.hpp"
#include "pipeline/volume_assembler.hpp"
#include "process/chunk_decoder.hpp"
#include "profile/frame_timeline.hpp"
#include "profile/rolling_stats.hpp"

namespace cineflow::pipeline {

// Host steady clock in nanoseconds: FrameHeader::timestampNs, latency and trace times.
std::int64_t nowNs();

// One device slot in flight: it owns the raw frame it uploads and the events of its frame.
struct InFlightSlot {
  compute::DeviceBuffer<std::byte> raw;
  // A compressed replay's staged chunk (process/staged_chunk.hpp), decoded into `raw`; the
  // decoder's status, on the device and copied back for the checks after the frame.
  compute::DeviceBuffer<std::byte> staged;
  compute::DeviceBuffer<int> status;
  compute::PinnedBuffer<int> statusHost;
  process::StagedChunk chunk;  // of the frame now in this slot (bytes 0: it arrived decoded)
  std::unique_ptr<compute::Event> decodeStart, decoded;
  // Recorded on the notify stream after the frame's last callback, which reads statusHost and
  // `observed`: the slot's next frame may overwrite them only after that.
  std::unique_ptr<compute::Event> released;
  // D2H copy of the image for the frame observer, made on the compute stream after `done`
  // (so the frame's time leaves it out); `observedCopy` completes with it.
  compute::PinnedBuffer<float> observed;
  std::unique_ptr<compute::Event> observedCopy;
  bool fresh = true;  // the processor's lastImageFresh() for the frame dispatched here
  std::unique_ptr<compute::Event> uploadStart, uploaded, done;
  std::vector<std::unique_ptr<compute::Event>> marks;  // processor stage marks
  acquire::FrameHeader header;                         // of the frame now in this slot
  bool used = false;                                   // holds a dispatched frame not collected
};

struct Engine::Impl {
  Impl(compute::Backend& backend, EngineConfig config, Cineloop& cineloop);

  // Control (engine.cpp).
  void configureForStart();
  void joinThreads();
  void setState(EngineState next, const std::string& error = {});
  void fail(const std::string& message);

  // Threads (engine_loops.cpp).
  void acquisitionLoop();
  void engineLoop();
  void applyPendingSettings();
  void dispatch(int hostSlot, InFlightSlot& slot);
  void collect(InFlightSlot& slot);
  void collectMipTimings();  // the volumes whose MIPs completed: statistics and trace, no wait
  void drain();
  void throwOnStreamError();
  void onProcessed(const acquire::FrameHeader& header) noexcept;
  // Reads frame `index` into ring slot `hostSlot`: staged as stored when the source hands over
  // compressed frames, else decoded; then gives it to the raw-frame tap (decoded). Throws
  // acquire::DamagedFrameError for a damaged frame.
  void readIntoSlot(std::uint64_t index, int hostSlot, acquire::FrameHeader& header);
  // A damaged frame under DamagedFramePolicy::Skip: counted, `why` kept.
  void noteDamaged(const std::string& why);
  // After the frame in `slot` completed: a staged frame the decoder found damaged is reported
  // (Stop: throws std::runtime_error naming the frame) or counted (Skip).
  void checkDecoded(const InFlightSlot& slot);
  // Slice index of a frame within its sweep (framesPerVolume > 0).
  int sliceOf(const acquire::FrameHeader& header) const;
  // Reconfigures volumes and cineloop for `geometry` (volumes first: they point into the loop).
  void configureImageStorage();
  // Chooses the processor's variants with `tuner` (none: defaults), measuring when `mayMeasure`
  // (every stage again when `remeasure`, and a stage that drifted since the last start); then
  // the drift watches (rebuildDriftWatches). With nothing in flight.
  void tuneStages(bool mayMeasure, bool remeasure);
  // One watch per chosen variant with a measurement, on its stage's statistics index.
  void rebuildDriftWatches();
  // Sizes the slots' stage marks and the stage statistics for the processor's stages (with
  // nothing in flight: at start, or after a reconfiguration changed them, e.g. RF to I/Q).
  void adoptStageNames();
  bool stageNamesChanged() const;
  double secondsSinceEpoch() const;

  compute::Backend& backend;
  EngineConfig config;
  Cineloop& cineloop;
  std::unique_ptr<acquire::FrameSource> source;
  std::mutex sourceMutex;  // held where source is replaced, and where another thread reads it
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

  // Measured choice of implementation (tune/tuner.hpp).
  std::shared_ptr<tune::Tuner> tuner;
  std::vector<tune::StageChoice> choices;  // statsMutex (written by the engine thread)
  std::string tuneNote;                    // statsMutex
  struct Watch {
    std::size_t statIndex;
    std::string stage;
    tune::DriftWatch watch;
  };
  std::vector<Watch> driftWatches;         // statsMutex
  std::vector<std::string> driftedStages;  // the engine thread's: measured again at next start
  std::atomic<bool> retuneRequested{false};

  HostRing ring;
  // A compressed replay (source->storedFormat(), codec not None): frames travel staged and are
  // decoded on the compute stream before the modality's stages (stage "decode").
  acquire::StoredFormat stored;
  process::ChunkDecoder decoder;
  process::ChunkLayout stageLayout;  // the acquisition thread's
  process::ChunkScratch tapScratch;  // the acquisition thread's: a staged frame for the tap ...
  std::vector<std::byte> tapFrame;   // ... decoded on the host
  process::ChunkScratch snapshotScratch;  // the engine thread's: a staged frame for snapshotRaw
  VolumeAssembler volumes;
  std::atomic<int> framesPerVolume{0};  // in effect since the last start
  std::vector<InFlightSlot> inFlight;

  std::atomic<bool> stopRequested{false};
  std::atomic<std::uint64_t> acquired{0}, dropped{0}, processed{0}, damaged{0};
  // Frames the source lost before they reached Cineflow during this run (a sender's gaps), and
  // the source's own count when the run started (it counts since it opened).
  std::atomic<std::uint64_t> lost{0};
  std::uint64_t lostAtStart = 0;
  // The source's count by why at the run's start, or at setSource (under sourceMutex).
  acquire::LostFrames lostByKindAtStart;
  std::string lastDamage;  // statsMutex

  mutable std::mutex stateMutex;
  std::condition_variable stateChanged;
  EngineState state = EngineState::Stopped;
  std::string error;

  mutable std::mutex statsMutex;
  std::vector<std::string> stageNames;  // "upload", "decode" (staged frames), the processor's
  std::vector<profile::RollingStats> stageStats;
  profile::RollingStats frameStats;
  profile::RollingStats latencyStats;           // source timestamp to displayable
  profile::RollingStats mipStats;               // per volume, device time on the endpoint stream
  profile::FrameTimeline timeline;              // per-frame stage times for the profiler overlay
  profile::PublishedRateMeter acquisitionRate;  // the acquisition thread's, without statsMutex
  profile::RateMeter processingRate;
  std::chrono::steady_clock::time_point epoch = std::chrono::steady_clock::now();

  // Tracing (setTraceRecorder), changeable while running. The request waits under traceMutex;
  // the engine thread takes it up between frames (adoptTraceRequest): tracks acquire, upload,
  // compute, endpoint, and an anchor that places device events on the host clock (traceAnchorNs +
  // their time since traceAnchor); then it hands the recorder to the acquisition thread.
  // setRawFrameTap(): the acquisition thread holds tapMutex while it calls the tap, so a change
  // waits for a call in progress.
  std::mutex tapMutex;
  std::shared_ptr<const RawFrameTap> rawFrameTap;  // tapMutex
  std::mutex traceMutex;
  std::shared_ptr<profile::TraceRecorder> requestedTrace;  // traceMutex
  std::shared_ptr<profile::TraceRecorder> acquireTrace;    // traceMutex: the acquisition thread's
  int acquireTrack = 0;                                    // traceMutex
  // Whether acquireTrace is set: the acquisition thread takes traceMutex only while tracing.
  std::atomic<bool> acquireTracing{false};
  std::atomic<bool> traceRequestPending{false};
  std::shared_ptr<profile::TraceRecorder> trace;  // the engine thread's
  std::array<int, 4> traceTracks{};               // acquire, upload, compute, endpoint
  std::unique_ptr<compute::Event> traceAnchor;
  std::int64_t traceAnchorNs = 0;
  void adoptTraceRequest();
  std::int64_t traceNs(const compute::Event& event) const;

  // Last: destroyed first, after draining, while every buffer above still exists.
  std::unique_ptr<compute::Stream> upload, compute, notify;  // notify: host callbacks only
  std::unique_ptr<compute::Stream> endpoint;                 // volumes: MIPs and callbacks' work
  std::thread acquisitionThread, engineThread;
};

}  // namespace cineflow::pipeline

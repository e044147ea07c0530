#pragma once
// Engine: the acquisition thread, the pinned host ring, the engine thread with its in-flight slots,
// the processor and the cineloop (docs/development.md, The pipeline).
//
//   acquisition thread ("cf-acquire"): source -> free host slot (Block: waits; Drop: counts)
//   engine thread ("cf-engine"): filled host slot -> [upload stream] H2D into an in-flight slot
//        -> [compute stream] waits the upload event, processor stages, image written into the
//        cineloop, done event, the observer's copy; [notify stream] host callbacks: release the
//        host slot once its upload event completed, hand the observer its copy and publish the
//        image once its done event completed (no callback runs on the compute stream)
//
// Every method is called from one controlling thread (the GUI or main thread) except stats(),
// state(), cineloop() readers and copyLatest(), which any thread may call.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "acquire/frame_source.hpp"
#include "compute/backend.hpp"
#include "modality/frame_processor.hpp"
#include "modality/modality.hpp"
#include "pipeline/cineloop.hpp"
#include "pipeline/engine_types.hpp"
#include "process/volume.hpp"
#include "profile/frame_timeline.hpp"
#include "profile/trace_recorder.hpp"

namespace cineflow::pipeline {

class Engine {
 public:
  // `backend` must outlive the engine.
  Engine(compute::Backend& backend, EngineConfig config);
  ~Engine();  // stop(), then releases every buffer; never throws
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Only while not running (throws std::logic_error otherwise).
  void setSource(std::unique_ptr<acquire::FrameSource> source);
  // Default: the source's modality's processor (source->modality().createProcessor()).
  void setProcessor(std::unique_ptr<modality::FrameProcessor> processor);
  void setFrameObserver(FrameObserver observer);
  // Whether a frame observer is set: each frame then also costs a copy of its image to the host
  // and a callback (a benchmark times the chain without one).
  bool hasFrameObserver() const;
  // Only while not running: frames skipped as damaged (pipeline/engine_types.hpp).
  void setDiscardObserver(DiscardObserver observer);
  // Called for every complete volume (process/volume.hpp), on the engine thread.
  void setVolumeCallback(process::VolumeCallback callback);
  // Records into `recorder` (profile/trace_recorder.hpp), or stops recording when null: the
  // source's reads on "cf-acquire", each frame's upload on "upload stream", each stage on
  // "compute stream", each volume's MIPs on "endpoint stream" (keyed by the sweep's last frame),
  // all keyed by sequence number. Any thread, any time, running or not: the
  // engine thread takes it up before its next frame (placing device times on the host clock
  // costs it one wait for the compute stream), so spans of the frames in flight at a change may
  // still arrive. The engine keeps a reference while it records.
  void setTraceRecorder(std::shared_ptr<profile::TraceRecorder> recorder);
  // Every raw frame from now on goes to `tap` too (pipeline/engine_types.hpp), or none when
  // null. Any thread, any time: the acquisition thread takes it up at its next frame; when this
  // returns, the previous tap is no longer called.
  void setRawFrameTap(std::shared_ptr<const RawFrameTap> tap);
  void setConfig(const EngineConfig& config);
  // Picks each tunable stage's implementation with `tuner` (tune/tuner.hpp) after every
  // configuration: a pinned or remembered variant, else, at start() only (never between the
  // frames of a running acquisition), a measurement on the processor's own buffers. Null (the
  // default): every stage runs its default variant. Only while not running.
  void setTuner(std::shared_ptr<tune::Tuner> tuner);
  // Measures the tunable stages again, between frames (the operator's Tune, after a drift the
  // statistics reported): the frames in flight complete first, and acquisition waits meanwhile
  // (Block) or drops (Drop). Any thread; the engine thread takes it up before its next frame.
  void requestRetune();

  // The modality's processing parameters (modality/modality.hpp). Live: validated now by the
  // source's modality (std::invalid_argument; without a source, at start()), applied by the
  // engine thread between frames. Until set, start() takes the modality's defaults for the source;
  // a new source drops them.
  void setSettings(std::shared_ptr<const modality::ProcessingSettings> settings);
  void setOverflowPolicy(OverflowPolicy policy);
  // Live: what a damaged frame of a replay does (stop the replay, or be skipped), from the next
  // damaged frame on.
  void setDamagedFramePolicy(DamagedFramePolicy policy);
  // Live: the pacing rate (0: the source's own rate), taken at the next frame; validated now
  // (std::invalid_argument). Overrides EngineConfig::frameRateHz until the next setConfig().
  void setFrameRate(double hz);

  // Configures the processor and buffers (allocations happen here), then starts both threads.
  // Throws on invalid configuration or allocation failure, leaving the engine stopped.
  void start();
  // Stops acquiring, finishes every frame already acquired (none is lost in Block mode), joins
  // both threads. Idempotent; safe while frames are in flight.
  void stop();
  // Blocks until the source has delivered maxFrames (sequence numbers a live source lost do not
  // count) or ended (acquire::SourceEnded) and all were processed, or the engine failed. Returns
  // the final state.
  EngineState waitUntilFinished();
  // The same, waiting at most `timeout`: Running when it passed first (a caller that also
  // watches for an interrupt).
  EngineState waitUntilFinished(std::chrono::milliseconds timeout);

  EngineState state() const;
  EngineStats stats() const;
  // Frames processed since the last start() (0 before the first): stats().processed without the
  // statistics, cheap enough to poll every millisecond. Any thread.
  std::uint64_t processedFrames() const;
  const compute::Backend& backend() const { return backend_; }
  // The source set (null without one): for read-only inspection by the controlling thread.
  const acquire::FrameSource* source() const;
  // The settings in effect, or those the next frame takes; null while none is set or chosen.
  std::shared_ptr<const modality::ProcessingSettings> settings() const;
  const Cineloop& cineloop() const { return cineloop_; }
  // Any thread: the newest complete volume, locked against reuse (empty while there is none).
  // Every lock must be released before the engine is destroyed.
  process::VolumeLock lockLatestVolume() const;
  // The newest min(frames, 256) frames' stage times, oldest first (the profiler overlay's
  // timeline). Copies under the statistics lock; `out` keeps its capacity between calls.
  void copyTimeline(std::size_t frames, std::vector<profile::FrameTiming>& out) const;
  // Frames per volume in effect since the last start() (0: no volumes).
  int framesPerVolume() const;

  // Copies the next raw frame the engine takes from the host ring (as the source delivered it)
  // into `bytes` (resized here, on the calling thread) with its header; for tools that work on
  // raw data, such as a modality's background capture or dispersion search. Any thread; waits up
  // to `timeout` and returns false when no frame came (the engine is not running).
  bool snapshotRaw(std::vector<std::byte>& bytes, acquire::FrameHeader& header,
                   std::chrono::milliseconds timeout) const;

  // Copies the newest complete image to host memory if its sequence differs from
  // `lastSequence` (pass ~0 for "any"). Returns false when nothing newer exists. Never blocks the
  // engine (the cineloop's seqlock); usable from the GUI thread.
  bool copyLatest(std::uint64_t lastSequence, std::vector<float>& pixels,
                  acquire::FrameHeader& header, process::ImageGeometry& geometry) const;

 private:
  struct Impl;
  compute::Backend& backend_;
  Cineloop cineloop_;  // before impl_: the engine's streams write it until impl_ is gone
  std::unique_ptr<Impl> impl_;
};

}  // namespace cineflow::pipeline

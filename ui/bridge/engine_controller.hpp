#pragma once
// EngineController: the only bridge between the GUI and the engine (house style rule 7,
// docs/development.md).
//
// It owns the compute backend and the engine, opens sources off the GUI thread, and turns the
// engine's state into signals on the GUI thread: a QTimer polls the newest completed image
// (Engine::copyLatest never blocks the engine) and the statistics. Frames are handed out as
// shared immutable handles drawn from a small pool, so steady-state display allocates nothing.
//
// Every method must be called on the thread the controller lives in (the GUI thread).

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <QObject>
#include <QString>
#include <QTimer>

#include "acquire/frame_source.hpp"
#include "common/background_job.hpp"
#include "common/image.hpp"
#include "compute/backend.hpp"
#include "link/igtl_server.hpp"
#include "pipeline/engine.hpp"
#include "pipeline/engine_types.hpp"
#include "tune/tuner.hpp"
#include "ultrasound/imaging_params.hpp"
#include "ultrasound/mat_import.hpp"

namespace cineflow::ui {

class EngineController : public QObject {
  Q_OBJECT

 public:
  // Creates the backend (throws std::runtime_error / std::invalid_argument when the requested one
  // cannot be had, e.g. CUDA without a device) and an idle engine.
  explicit EngineController(compute::BackendRequest request, pipeline::EngineConfig config = {},
                            QObject* parent = nullptr);
  ~EngineController() override;  // stops the engine and waits for a pending open

  // "CPU: CPU (16 threads)"
  QString backendDescription() const;
  // Why Auto fell back to the CPU; empty otherwise.
  const QString& backendNotice() const { return backendNotice_; }
  // The open source's own description; empty while none is open.
  QString sourceDescription() const;
  // What changed when the open source was opened again by itself to follow a live source's new
  // picture ("the server's image changed from 96 x 64 uint8, ... to 97 x 64 uint8, ..."), from its
  // sourceChanged() on; empty when the operator opened it.
  const QString& followedChange() const { return followedChange_; }

  // A source whose picture changes more than this often is not followed (open()).
  static constexpr int kFollowLimit = 3;
  static constexpr std::chrono::seconds kFollowWindow{10};

  bool isOpening() const { return opener_.running(); }
  bool hasSource() const { return source_ != nullptr; }
  bool isRunning() const;
  // The source the engine reads (owned by the engine), for read-only inspection (e.g. the
  // simulator's phantom). Null while none is open.
  const acquire::FrameSource* source() const { return source_; }
  const pipeline::Engine& engine() const { return *engine_; }
  // Records the engine into `recorder` from its next frame on; null stops (Engine::
  // setTraceRecorder).
  void setTraceRecorder(std::shared_ptr<profile::TraceRecorder> recorder) {
    engine_->setTraceRecorder(std::move(recorder));
  }
  // Every raw frame also goes to `tap` (Engine::setRawFrameTap); null stops. Any time.
  void setRawFrameTap(std::shared_ptr<const pipeline::RawFrameTap> tap) {
    engine_->setRawFrameTap(std::move(tap));
  }
  // The compute backend (for the GUI's own device buffers, e.g. the volume store).
  compute::Backend& backend() { return *backend_; }
  // The engine's volume callback (process/volume.hpp); only while stopped (the engine refuses
  // otherwise). Set once, before the first start, by whoever consumes volumes.
  void setVolumeCallback(process::VolumeCallback callback) {
    engine_->setVolumeCallback(std::move(callback));
  }
  // Whether frameReady() hands out frames whose pixels stay in the cineloop (pixelsInCineloop)
  // instead of host copies: for a view that uploads them device-to-texture. Off by default.
  void setPixelsInCineloop(bool enabled) { pixelsInCineloop_ = enabled; }
  bool pixelsInCineloop() const { return pixelsInCineloop_; }
  // Frames emitted through frameReady() since construction.
  std::uint64_t framesDelivered() const { return framesDelivered_; }

  // The engine configuration used at the next start (frame rate and overflow policy included).
  const pipeline::EngineConfig& config() const { return config_; }
  // Whether the overflow policy follows the source (setAutoOverflowPolicy), and whether the open
  // source is live (a simulator, a camera, a stream, a plugin, a script's frames; not a file).
  bool overflowAuto() const { return overflowAuto_; }
  bool sourceIsLive() const { return sourceLive_; }
  // The open source's own frame rate (what a frame rate of 0 means); 0 while none is open.
  double sourceFrameRateHz() const;
  // Ultrasound's imaging parameters in effect (or pending, applied at the next frame).
  ultrasound::ImagingParams imagingParams() const;
  // The compute device's memory (the backend's figures; the host's for the CPU backend).
  compute::DeviceMemoryInfo memoryInfo() const { return backend_->memoryInfo(); }

 public slots:
  // Opens "sim", an RF recording or a MATLAB file (read with `matMapping`) on a background
  // thread; on success the engine gets the source (stopping it first) and sourceOpened() is
  // emitted, then acquisition starts if `autoStart`. Failures arrive through errorOccurred().
  //
  // A run that fails because a live source's picture changed (EngineStats::sourceChange: a
  // scanner's depth changed its server's image size) opens the same source again by itself and
  // goes on: the settings in effect stay when the engine takes them for the new picture (the
  // modality's defaults otherwise), followedChange() says what changed. A source whose picture
  // changes again at once (kFollowLimit times within kFollowWindow) is not followed: the failure
  // is reported instead.
  void open(const QString& spec, bool autoStart = true,
            const ultrasound::MatMapping& matMapping = ultrasound::MatMapping::verasonics());
  // Starts acquiring; returns false (and emits errorOccurred) when the engine refuses.
  bool start();
  // Stops acquiring; the last image stays available. Idempotent.
  void stop();
  void setRunning(bool running);
  // Paces the source at `hz` (0: the source's own rate), live: a running acquisition takes it at
  // its next frame without stopping. Returns false (and emits errorOccurred) when it is refused.
  bool setFrameRate(double hz);
  // Live: what happens to frames arriving while the host ring is full.
  void setOverflowPolicy(cineflow::pipeline::OverflowPolicy policy);
  // Live, and again at each source opened: Latest for a live source (the image stays current,
  // every frame is recorded), Block for a replay (every frame imaged). The default.
  void setAutoOverflowPolicy();
  // Picks each tunable stage's implementation with the tuning history of this machine (measuring
  // at the next start what it has not measured), `pins` first (tune/tuner.hpp). Without
  // `measure` (--no-tune) only the pins apply. Call while stopped; the history is saved when the
  // controller is destroyed.
  void enableTuning(cineflow::tune::VariantPins pins, bool measure = true);
  // The most device memory the engine's buffers may take (compute/device_budget.hpp); 0: no
  // budget. A configuration needing more fails to start, saying how much.
  void setDeviceMemoryBudget(std::size_t bytes) { backend_->setDeviceMemoryBudget(bytes); }
  // Measures the tunable stages again, between frames (Acquisition > Tune stages).
  void retune();
  bool tuningEnabled() const { return tuner_ != nullptr && tuner_->measures(); }
  // Live: whether a replay's damaged frame stops it or is skipped.
  void setDamagedFramePolicy(cineflow::pipeline::DamagedFramePolicy policy);
  // The modality's processing parameters (modality/modality.hpp), live (applied between
  // frames). Returns an empty string on success, otherwise why they were refused; the previous
  // ones stay in effect.
  QString setSettings(std::shared_ptr<const cineflow::modality::ProcessingSettings> settings);
  // setSettings() with ultrasound's imaging parameters.
  QString setImagingParams(const cineflow::ultrasound::ImagingParams& params);

  // The OpenIGTLink server on this engine (engine_controller_igtl.cpp, link/igtl_server.hpp):
  // started with `options` (a running one is replaced), or "" and the reason it could not listen.
  QString startIgtlServer(const cineflow::link::IgtlServerOptions& options);
  void stopIgtlServer();
  const cineflow::link::IgtlServer* igtlServer() const { return igtl_.get(); }
  // Live, while serving: 8-bit images follow the display's white level and range.
  void setIgtlMapping(const cineflow::link::DisplayMapping& mapping);
  void setIgtlPixels(cineflow::link::LinkPixels pixels);

 signals:
  void openProgress(double fraction, const QString& what);
  void sourceOpened(const QString& description);
  // A new source is in place in the engine (emitted just before sourceOpened()); not after a
  // failed open, which leaves the previous source in place.
  void sourceChanged();
  void runningChanged(bool running);
  void frameReady(std::shared_ptr<const cineflow::ui::Image> frame);
  void statsUpdated(const cineflow::pipeline::EngineStats& stats);
  void errorOccurred(const QString& message);
  // After setSettings() accepted new parameters.
  void settingsChanged();

 private:
  void startOpen(const QString& spec, bool autoStart, const ultrasound::MatMapping& matMapping,
                 const QString& following);
  void finishOpen(std::unique_ptr<acquire::FrameSource> source, bool autoStart);
  // Opens the source again after its picture changed; false when it changed kFollowLimit times
  // within kFollowWindow already.
  bool follow(const QString& change);
  pipeline::OverflowPolicy autoOverflowPolicy() const;
  void applyOverflowPolicy(pipeline::OverflowPolicy policy);
  void failOpen(const QString& message);
  void pollFrame();
  void pollStats();
  std::shared_ptr<Image> takeFreeFrame();

  std::unique_ptr<compute::Backend> backend_;
  std::unique_ptr<pipeline::Engine> engine_;  // declared after backend_: destroyed before it
  std::unique_ptr<link::IgtlServer> igtl_;    // after engine_: stopped before it goes
  link::DisplayMapping igtlMapping_;          // the display's, for a server started later
  std::shared_ptr<tune::Tuner> tuner_;        // null: every stage's default variant
  pipeline::EngineConfig config_;  // the engine's configuration, kept to change one field of it
  const acquire::FrameSource* source_ = nullptr;
  QString backendNotice_;

  std::unique_ptr<acquire::FrameSource> opened_;  // written by opener_'s work, taken when done
  bool openAutoStart_ = false;
  // The spec being opened and the open source's, to follow a source whose picture changed.
  QString openingSpec_, sourceSpec_;
  ultrasound::MatMapping openingMapping_, sourceMapping_;
  QString followingChange_;  // the open in progress follows this change
  QString followedChange_;   // followedChange()
  std::vector<std::chrono::steady_clock::time_point> follows_;  // the recent ones
  bool openingLive_ = false;  // the source being opened is live (see sourceIsLive)
  bool sourceLive_ = false;
  bool overflowAuto_ = false;        // MainWindow turns it on (the operator's default)
  BackgroundJob opener_{"cf-open"};  // after opened_: waited for before it goes

  QTimer frameTimer_;
  QTimer statsTimer_;
  std::uint64_t lastSequence_ = ~std::uint64_t{0};
  std::uint64_t framesDelivered_ = 0;
  bool failureReported_ = false;
  bool pixelsInCineloop_ = false;
  // Frames handed to views; one whose only owner is the pool is free to refill.
  std::vector<std::shared_ptr<Image>> framePool_;
};

}  // namespace cineflow::ui

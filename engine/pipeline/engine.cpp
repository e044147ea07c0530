#include "pipeline/engine.hpp"

#include <algorithm>
#include <iostream>
#include <stdexcept>

#include "pipeline/engine_impl.hpp"

namespace cineflow::pipeline {

Engine::Impl::Impl(compute::Backend& backendRef, EngineConfig engineConfig, Cineloop& loop)
    : backend(backendRef),
      config(engineConfig),
      cineloop(loop),
      overflow(engineConfig.overflow),
      damagedPolicy(engineConfig.damagedFrames),
      frameRateHz(engineConfig.frameRateHz) {}

Engine::Engine(compute::Backend& backend, EngineConfig config) : backend_(backend) {
  config.validate();
  impl_ = std::make_unique<Impl>(backend, config, cineloop_);
}

Engine::~Engine() {
  try {
    stop();
  } catch (const std::exception& e) {
    std::cerr << "cineflow: error while stopping the engine: " << e.what() << '\n';
  }
}

namespace {

bool runPaysForTuning(const EngineConfig& config) {
  return config.maxFrames == 0 || config.maxFrames >= config.tuningPaybackFrames;
}

void requireStopped(EngineState state, const char* what) {
  if (state == EngineState::Running) {
    throw std::logic_error(std::string(what) + " while the engine is running: stop it first");
  }
}
}  // namespace

void Engine::setSource(std::unique_ptr<acquire::FrameSource> source) {
  requireStopped(state(), "setSource");
  impl_->joinThreads();
  {
    std::lock_guard lock(impl_->sourceMutex);
    impl_->source = std::move(source);
    impl_->lostByKindAtStart =
        impl_->source ? impl_->source->lostFramesByKind() : acquire::LostFrames{};
  }
  std::lock_guard lock(impl_->settingsMutex);
  impl_->settings.reset();
  impl_->pendingSettings.reset();
}

void Engine::setProcessor(std::unique_ptr<modality::FrameProcessor> processor) {
  requireStopped(state(), "setProcessor");
  impl_->joinThreads();
  impl_->processor = std::move(processor);
  impl_->processorModality = nullptr;
}

void Engine::setRawFrameTap(std::shared_ptr<const RawFrameTap> tap) {
  impl_->rawTap.set(std::move(tap));
}

void Engine::setFrameObserver(FrameObserver observer) {
  requireStopped(state(), "setFrameObserver");
  impl_->joinThreads();
  impl_->observer = std::move(observer);
}

bool Engine::hasFrameObserver() const {
  return static_cast<bool>(impl_->observer);
}

void Engine::setDiscardObserver(DiscardObserver observer) {
  requireStopped(state(), "setDiscardObserver");
  impl_->joinThreads();
  impl_->discardObserver = std::move(observer);
}

void Engine::setVolumeCallback(process::VolumeCallback callback) {
  requireStopped(state(), "setVolumeCallback");
  impl_->joinThreads();
  impl_->volumeCallback = std::move(callback);
}

void Engine::setTraceRecorder(std::shared_ptr<profile::TraceRecorder> recorder) {
  impl_->trace.request(std::move(recorder));
}

process::VolumeLock Engine::lockLatestVolume() const {
  return impl_->volumes.lockLatest();
}

int Engine::framesPerVolume() const {
  return impl_->framesPerVolume.load();
}

void Engine::setConfig(const EngineConfig& config) {
  requireStopped(state(), "setConfig");
  config.validate();
  impl_->joinThreads();
  impl_->config = config;
  impl_->overflow = config.overflow;
  impl_->damagedPolicy = config.damagedFrames;
  impl_->frameRateHz = config.frameRateHz;
}

void Engine::setSettings(std::shared_ptr<const modality::ProcessingSettings> settings) {
  if (!settings) {
    throw std::invalid_argument("setSettings: no settings given");
  }
  if (impl_->source) {
    impl_->source->modality().validate(*settings, *impl_->source);
  }
  std::lock_guard lock(impl_->settingsMutex);
  if (state() == EngineState::Running) {
    impl_->pendingSettings = std::move(settings);
  } else {
    impl_->settings = std::move(settings);
  }
}

void Engine::setOverflowPolicy(OverflowPolicy policy) {
  impl_->overflow = policy;
}

void Engine::setTuner(std::shared_ptr<tune::Tuner> tuner) {
  std::lock_guard lock(impl_->stateMutex);
  if (impl_->state == EngineState::Running) {
    throw std::logic_error("setTuner: the engine is running");
  }
  impl_->tuner = std::move(tuner);
}

void Engine::requestRetune() {
  impl_->retuneRequested = true;
}

void Engine::setDamagedFramePolicy(DamagedFramePolicy policy) {
  impl_->damagedPolicy = policy;
}

void Engine::setFrameRate(double hz) {
  EngineConfig checked = impl_->config;
  checked.frameRateHz = hz;
  checked.validate();
  impl_->frameRateHz = hz;
}

void Engine::start() {
  requireStopped(state(), "start");
  impl_->joinThreads();
  impl_->configureForStart();
  impl_->source->startAcquisition();  // a live source's hardware or stream: last, it may throw
  impl_->setState(EngineState::Running);
  EngineSession& run = *impl_->session;
  run.engineThread = std::thread([impl = impl_.get(), &run] { impl->engineLoop(run); });
  run.acquisitionThread = std::thread([impl = impl_.get(), &run] { impl->acquisitionLoop(run); });
}

void Engine::stop() {
  if (const std::shared_ptr<EngineSession> run = impl_->currentSession()) {
    run->stopRequested = true;
  }
  impl_->ring.requestStop();
  if (impl_->source) {
    impl_->source->stopAcquisition();  // ends a live source's wait for its next frame
  }
  impl_->joinThreads();
  std::lock_guard lock(impl_->stateMutex);
  if (impl_->state == EngineState::Running) {
    impl_->state = EngineState::Stopped;
  }
}

EngineState Engine::waitUntilFinished() {
  std::unique_lock lock(impl_->stateMutex);
  impl_->stateChanged.wait(lock, [&] { return impl_->state != EngineState::Running; });
  return impl_->state;
}

EngineState Engine::waitUntilFinished(std::chrono::milliseconds timeout) {
  std::unique_lock lock(impl_->stateMutex);
  impl_->stateChanged.wait_for(lock, timeout, [&] { return impl_->state != EngineState::Running; });
  return impl_->state;
}

EngineState Engine::state() const {
  std::lock_guard lock(impl_->stateMutex);
  return impl_->state;
}

bool Engine::snapshotRaw(std::vector<std::byte>& bytes, acquire::FrameHeader& header,
                         std::chrono::milliseconds timeout) const {
  if (!impl_->source || state() != EngineState::Running) {
    return false;
  }
  bytes.resize(impl_->source->frameBytes());
  std::unique_lock lock(impl_->snapshotMutex);
  impl_->snapshot = &bytes;
  impl_->snapshotHeader = &header;
  impl_->snapshotRequested = true;
  const bool taken =
      impl_->snapshotTaken.wait_for(lock, timeout, [&] { return !impl_->snapshotRequested; });
  impl_->snapshotRequested = false;  // a late frame must not write into `bytes` after we return
  impl_->snapshot = nullptr;
  impl_->snapshotHeader = nullptr;
  return taken;
}

const acquire::FrameSource* Engine::source() const {
  return impl_->source.get();
}

std::shared_ptr<const modality::ProcessingSettings> Engine::settings() const {
  std::lock_guard lock(impl_->settingsMutex);
  return impl_->pendingSettings ? impl_->pendingSettings : impl_->settings;
}

EngineStats Engine::stats() const {
  EngineStats s;
  {
    std::lock_guard lock(impl_->stateMutex);
    s.state = impl_->state;
    s.error = impl_->error;
    s.sourceChange = impl_->sourceChange;
  }
  if (const std::shared_ptr<EngineSession> run = impl_->currentSession()) {
    s.acquired = run->acquired;
    s.dropped = run->dropped;
    s.skipped = run->skipped;
    s.lost = run->lost;
    s.damaged = run->damaged;
    s.processed = run->processed;
  }
  {
    std::lock_guard lock(impl_->sourceMutex);  // any thread polls; setSource() replaces it
    if (impl_->source) {
      s.sourceStatus = impl_->source->liveStatus();
      s.sourceCounters = impl_->source->transportCounters();
      s.lostByKind = impl_->source->lostFramesByKind().since(impl_->lostByKindAtStart);
    }
  }
  s.volumes = impl_->volumes.completed();
  s.volumesAbandoned = impl_->volumes.abandoned();
  s.ringSlots = impl_->ring.slotCount();
  s.ringOccupancy = s.ringSlots > 0 ? impl_->ring.occupancy() : 0;
  impl_->statistics.fill(s);
  return s;
}

std::uint64_t Engine::processedFrames() const {
  const std::shared_ptr<EngineSession> run = impl_->currentSession();
  return run ? run->processed.load() : 0;
}

void Engine::copyTimeline(std::size_t frames, std::vector<profile::FrameTiming>& out) const {
  impl_->statistics.copyTimeline(frames, out);
}

bool Engine::copyLatest(std::uint64_t lastSequence, std::vector<float>& pixels,
                        acquire::FrameHeader& header, process::ImageGeometry& geometry) const {
  const std::optional<acquire::FrameHeader> newest = cineloop_.latest();
  if (!newest || newest->sequence == lastSequence) {
    return false;
  }
  return cineloop_.copyImage(std::nullopt, pixels, header, geometry) &&
         header.sequence != lastSequence;
}

void EngineSession::join() {
  if (acquisitionThread.joinable()) {
    acquisitionThread.join();
  }
  if (engineThread.joinable()) {
    engineThread.join();
  }
}

void Engine::Impl::joinThreads() {
  if (const std::shared_ptr<EngineSession> run = currentSession()) {
    run->join();
  }
}

std::shared_ptr<EngineSession> Engine::Impl::currentSession() const {
  std::lock_guard lock(sessionMutex);
  return session;
}

void Engine::Impl::setState(EngineState next, const std::string& message,
                            const std::string& change) {
  {
    std::lock_guard lock(stateMutex);
    if (state == EngineState::Failed && next != EngineState::Running) {
      return;  // the first failure stays visible until the next start
    }
    state = next;
    error = next == EngineState::Failed ? message : std::string();
    sourceChange = next == EngineState::Failed ? change : std::string();
  }
  stateChanged.notify_all();
}

void Engine::Impl::fail(const std::string& message, const std::string& sourceChange) {
  setState(EngineState::Failed, message, sourceChange);
  if (const std::shared_ptr<EngineSession> run = currentSession()) {
    run->stopRequested = true;
  }
  ring.requestStop();
  source->stopAcquisition();
  ring.close();
}

void Engine::Impl::configureForStart() {
  if (!source) {
    throw std::logic_error("start: no frame source set");
  }
  if (source->frameCount() == 0) {
    throw std::invalid_argument("start: the source " + source->describe() + " has no frames");
  }
  const modality::Modality& modality = source->modality();
  std::shared_ptr<const modality::ProcessingSettings> chosen;
  {
    std::lock_guard lock(settingsMutex);
    if (pendingSettings) {
      settings = std::move(pendingSettings);
      pendingSettings.reset();
    }
    if (!settings) {
      settings = modality.defaultSettings(*source);
    }
    chosen = settings;
  }
  modality.validate(*chosen, *source);  // set before the source, or for another one
  if (!processor || (processorModality != nullptr && processorModality != &modality)) {
    processor = modality.createProcessor();
    processorModality = &modality;
  }
  processor->configure(backend, *source, *chosen);
  geometry = processor->geometry();
  framesPerVolume =
      config.framesPerVolume >= 0 ? config.framesPerVolume : source->framesPerVolume();
  configureImageStorage();

  const std::size_t frameBytes = source->frameBytes();
  stored = source->storedFormat();
  const bool staging = stored.codec != acquire::ChunkCodec::None;
  const std::size_t stagedBytes = staging ? process::stagedCapacity(stored, frameBytes) : 0;
  if (staging) {
    decoder.configure(backend, frameBytes);
  }
  rawTap.configure(stored, frameBytes);
  ring.configure(backend, config.hostRingSlots, frameBytes, stagedBytes);
  if (!upload) {
    upload = backend.createStream("upload");
    compute = backend.createStream("compute");
    notify = backend.createStream("notify");
    endpoint = backend.createStream("endpoint");
  }
  auto run = std::make_shared<EngineSession>(source->lostFrames());
  run->inFlight.resize(static_cast<std::size_t>(config.inFlightSlots));
  run->skippedHeaders.reserve(static_cast<std::size_t>(config.hostRingSlots));
  for (InFlightSlot& slot : run->inFlight) {
    slot.raw = compute::DeviceBuffer<std::byte>(backend, frameBytes);
    slot.staged = compute::DeviceBuffer<std::byte>(backend, stagedBytes);
    slot.status = compute::DeviceBuffer<int>(backend, staging ? 1 : 0);
    slot.statusHost = compute::PinnedBuffer<int>(backend, staging ? 1 : 0);
    slot.decodeStart = backend.createEvent();
    slot.decoded = backend.createEvent();
    slot.released = backend.createSyncEvent();
    slot.observedCopy = backend.createSyncEvent();
    if (observer) {
      slot.observed = compute::PinnedBuffer<float>(backend, geometry.values());
    }
    slot.uploadStart = backend.createEvent();
    slot.uploaded = backend.createEvent();
    slot.done = backend.createEvent();
  }

  // A recorder requested before start sees the first frame: take it up here, before the threads.
  trace.adopt(backend, *compute, true);

  // The stages' and the volumes' buffers are all in place. A run too short to pay back the
  // measuring (EngineConfig::tuningPaybackFrames) takes the history's choice, else the default.
  statistics.startRun(static_cast<std::size_t>(config.statsWindow));
  tuneStages(runPaysForTuning(config), false);
  adoptStageNames(*run);
  {
    std::lock_guard sourceLock(sourceMutex);
    lostByKindAtStart = source->lostFramesByKind();
  }
  std::lock_guard lock(sessionMutex);
  session = std::move(run);
}

std::size_t Engine::Impl::firstProcessorRow() const {
  return stored.codec != acquire::ChunkCodec::None ? 2 : 1;
}

void Engine::Impl::adoptStageNames(EngineSession& run) {
  const auto names = processor->stageNames();
  for (InFlightSlot& slot : run.inFlight) {
    slot.marks.resize(names.size() + 1);
    for (auto& mark : slot.marks) {
      if (!mark) {
        mark = backend.createEvent();
      }
    }
  }
  stageRows.assign({"upload"});
  if (stored.codec != acquire::ChunkCodec::None) {
    stageRows.emplace_back("decode");
  }
  stageRows.insert(stageRows.end(), names.begin(), names.end());
  stageMs.assign(stageRows.size(), -1.0);
  statistics.setStages(stageRows);
}

void Engine::Impl::tuneStages(bool mayMeasure, bool remeasure) {
  std::vector<tune::StageChoice> made;
  if (tuner) {
    std::vector<tune::TunableStage> stages = processor->tunableStages(backend);
    if (endpoint) {
      for (tune::TunableStage& stage : volumes.tunableStages(backend, cineloop, *endpoint)) {
        stages.push_back(std::move(stage));
      }
    }
    for (const tune::TunableStage& stage : stages) {
      const bool drifted =
          std::find(driftedStages.begin(), driftedStages.end(), stage.stage) != driftedStages.end();
      if (mayMeasure && (remeasure || drifted)) {
        tune::StageChoice choice;
        choice.stage = stage.stage;
        const tune::TuningHistory history = tuner->history();
        const tune::TuningEntry* before = history.find(tuner->keyFor(stage));
        choice.entry = tuner->measure(stage);
        if (before != nullptr && before->chosen != choice.entry.chosen) {
          choice.replaced = before->chosen;
        }
        choice.variant = choice.entry.chosen;
        choice.source = tune::ChoiceSource::Measured;
        made.push_back(std::move(choice));
      } else {
        made.push_back(tuner->choose(stage, mayMeasure));
      }
    }
    if (mayMeasure) {
      driftedStages.clear();
    }
  }
  statistics.setChoices(std::move(made));
}

bool Engine::Impl::stageNamesChanged() const {
  const auto names = processor->stageNames();
  return !statistics.stagesFrom(firstProcessorRow(), names);
}

void Engine::Impl::configureImageStorage() {
  const int k = framesPerVolume.load();
  int capacity = config.cineloopFrames;
  if (k > 0) {
    // Whole sweeps, at least two: one being filled while the previous one is read.
    capacity = std::max(2 * k, (capacity + k - 1) / k * k);
  }
  volumes.configure(backend, k, k > 0 ? capacity / k : 0, geometry);
  cineloop.configure(backend, capacity, geometry);
}

int Engine::Impl::sliceOf(const acquire::FrameHeader& header) const {
  const int k = framesPerVolume.load();
  return config.framesPerVolume > 0
             ? static_cast<int>(header.sourceIndex % static_cast<std::uint64_t>(k))
             : header.slice.sliceIndex;
}

}  // namespace cineflow::pipeline

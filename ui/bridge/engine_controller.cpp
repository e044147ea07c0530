#include "bridge/engine_controller.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <utility>

#include "registry/source_factory.hpp"
#include "registry/ultrasound_engine.hpp"
#include "tune/tuner_setup.hpp"
#include "ultrasound/imaging_params.hpp"
#include "ultrasound/ultrasound_modality.hpp"

namespace cineflow::ui {
namespace {

// Polling faster than the display refreshes would only copy frames nobody sees.
constexpr int kFramePollMs = 16;
constexpr int kStatsPollMs = 250;
// The view holds one frame on screen and one pending; a third lets the controller fill the next
// without allocating. More appear only when a consumer holds on to frames.
constexpr std::size_t kPooledFrames = 4;

// Thrown from the progress callback to abandon an open nobody waits for any more.
struct OpenCancelled {};

}  // namespace

EngineController::EngineController(compute::BackendRequest request, pipeline::EngineConfig config,
                                   QObject* parent)
    : QObject(parent), config_(config) {
  std::string notice;
  backend_ = compute::createBackend(request, &notice);
  backendNotice_ = QString::fromStdString(notice);
  engine_ = std::make_unique<pipeline::Engine>(*backend_, config);

  frameTimer_.setInterval(kFramePollMs);
  frameTimer_.setTimerType(Qt::PreciseTimer);
  connect(&frameTimer_, &QTimer::timeout, this, &EngineController::pollFrame);
  statsTimer_.setInterval(kStatsPollMs);
  connect(&statsTimer_, &QTimer::timeout, this, &EngineController::pollStats);
  connect(&opener_, &BackgroundJob::finished, this, [this](bool ok, const QString& message) {
    if (ok) {
      finishOpen(std::move(opened_), openAutoStart_);
    } else if (!message.isEmpty()) {  // empty: cancelled, nobody waits
      failOpen(message);
    }
  });
}

EngineController::~EngineController() {
  frameTimer_.stop();
  statsTimer_.stop();
  opener_.cancelAndWait();
  try {
    engine_->stop();
  } catch (...) {
    // Destructors never throw; the engine's own destructor retries and logs.
  }
  if (tuner_) {
    if (const std::string problem = tune::saveTuning(*tuner_); !problem.empty()) {
      std::fprintf(stderr, "cineflow: %s\n", problem.c_str());
    }
  }
}

void EngineController::enableTuning(tune::VariantPins pins, bool measure) {
  if (measure) {
    std::string message;
    tuner_ = tune::makeTuner(*backend_, std::move(pins), message);
    if (!message.empty()) {
      std::fprintf(stderr, "cineflow: %s\n", message.c_str());
    }
  } else {
    tuner_ = tune::makePinsOnlyTuner(*backend_, std::move(pins));
  }
  engine_->setTuner(tuner_);
}

void EngineController::retune() {
  engine_->requestRetune();
}

QString EngineController::backendDescription() const {
  return QStringLiteral("%1: %2").arg(QString::fromLatin1(compute::toString(backend_->kind())),
                                      QString::fromStdString(backend_->deviceName()));
}

QString EngineController::sourceDescription() const {
  return source_ ? QString::fromStdString(source_->describe()) : QString();
}

ultrasound::ImagingParams EngineController::imagingParams() const {
  return ultrasound::imagingOf(*engine_);
}

double EngineController::sourceFrameRateHz() const {
  return source_ ? source_->frameRateHz() : 0.0;
}

bool EngineController::isRunning() const {
  return engine_->state() == pipeline::EngineState::Running;
}

void EngineController::open(const QString& spec, bool autoStart,
                            const ultrasound::MatMapping& matMapping) {
  startOpen(spec, autoStart, matMapping, QString());
}

void EngineController::startOpen(const QString& spec, bool autoStart,
                                 const ultrasound::MatMapping& matMapping,
                                 const QString& following) {
  if (isOpening()) {
    emit errorOccurred(tr("Still opening the previous source; try again when it is open."));
    return;
  }
  openingSpec_ = spec;
  openingMapping_ = matMapping;
  followingChange_ = following;
  openAutoStart_ = autoStart;
  openingLive_ = !acquire::readsFileFromOutside(spec.toStdString());
  opener_.start([this, spec = spec.toStdString(), matMapping](BackgroundJob& job) {
    const acquire::ProgressFn progress = [this, &job](double fraction, const std::string& what) {
      if (job.cancelled()) {
        throw OpenCancelled{};
      }
      // Dropped if this controller goes first: its destructor waits for the work, and queued
      // events die with it.
      QMetaObject::invokeMethod(
          this,
          [this, fraction, text = QString::fromStdString(what)] {
            emit openProgress(fraction, text);
          },
          Qt::QueuedConnection);
    };
    try {
      opened_ = acquire::openSource(spec, 0, progress, matMapping);  // throws: failOpen
    } catch (const OpenCancelled&) {
      return BackgroundJob::Result{false, QString()};
    }
    return BackgroundJob::Result{true, QString()};
  });
}

void EngineController::failOpen(const QString& message) {
  if (!followingChange_.isEmpty()) {
    const QString change = std::exchange(followingChange_, QString());
    emit errorOccurred(
        tr("The source's picture changed (%1), and it could not be opened again to follow it: %2")
            .arg(change, message));
    return;
  }
  emit errorOccurred(tr("Cannot open the source: %1").arg(message));
}

bool EngineController::follow(const QString& change) {
  const auto now = std::chrono::steady_clock::now();
  std::erase_if(follows_, [&](auto at) { return now - at > kFollowWindow; });
  if (static_cast<int>(follows_.size()) >= kFollowLimit) {
    return false;
  }
  follows_.push_back(now);
  stop();
  startOpen(sourceSpec_, true, sourceMapping_, change);
  return true;
}

void EngineController::finishOpen(std::unique_ptr<acquire::FrameSource> source, bool autoStart) {
  stop();
  const QString following = std::exchange(followingChange_, QString());
  try {
    const auto* opened = source.get();
    // Following a source's new picture, the operator's settings stay where they still apply.
    const auto kept = following.isEmpty() ? nullptr : engine_->settings();
    engine_->setSource(std::move(source));
    source_ = opened;
    sourceLive_ = openingLive_;
    if (overflowAuto_) {
      applyOverflowPolicy(autoOverflowPolicy());
    }
    bool keptApplies = kept != nullptr;
    if (keptApplies) {
      try {
        engine_->setSettings(kept);
      } catch (const std::exception&) {
        keptApplies = false;
      }
    }
    if (!keptApplies) {
      engine_->setSettings(opened->modality().defaultSettings(*opened));
    }
  } catch (const std::exception& error) {
    emit errorOccurred(tr("Cannot use the source: %1").arg(QString::fromStdString(error.what())));
    return;
  }
  sourceSpec_ = openingSpec_;
  sourceMapping_ = openingMapping_;
  followedChange_ = following;
  emit sourceChanged();
  emit sourceOpened(sourceDescription());
  if (autoStart) {
    start();
  }
}

bool EngineController::start() {
  if (isRunning()) {
    return true;
  }
  if (!source_) {
    emit errorOccurred(tr("No source is open."));
    return false;
  }
  try {
    engine_->start();
  } catch (const std::exception& error) {
    emit errorOccurred(
        tr("Cannot start acquisition: %1").arg(QString::fromStdString(error.what())));
    return false;
  }
  failureReported_ = false;
  frameTimer_.start();
  statsTimer_.start();
  emit runningChanged(true);
  return true;
}

void EngineController::stop() {
  if (!frameTimer_.isActive()) {
    return;
  }
  try {
    engine_->stop();
  } catch (const std::exception& error) {
    emit errorOccurred(tr("Stopping failed: %1").arg(QString::fromStdString(error.what())));
  }
  frameTimer_.stop();
  statsTimer_.stop();
  pollFrame();  // the last image finished while stopping
  pollStats();
  emit runningChanged(false);
}

void EngineController::setRunning(bool running) {
  if (running) {
    start();
  } else {
    stop();
  }
}

bool EngineController::setFrameRate(double hz) {
  try {
    engine_->setFrameRate(hz);  // live: the acquisition thread takes it at its next frame
  } catch (const std::exception& error) {
    emit errorOccurred(tr("Frame rate refused: %1").arg(QString::fromStdString(error.what())));
    return false;
  }
  config_.frameRateHz = hz;  // so that a later setConfig keeps it
  return true;
}

void EngineController::setOverflowPolicy(pipeline::OverflowPolicy policy) {
  overflowAuto_ = false;
  applyOverflowPolicy(policy);
}

void EngineController::setAutoOverflowPolicy() {
  overflowAuto_ = true;
  applyOverflowPolicy(autoOverflowPolicy());
}

pipeline::OverflowPolicy EngineController::autoOverflowPolicy() const {
  return sourceLive_ ? pipeline::OverflowPolicy::Latest : pipeline::OverflowPolicy::Block;
}

void EngineController::applyOverflowPolicy(pipeline::OverflowPolicy policy) {
  config_.overflow = policy;  // so that a later setConfig (frame rate) keeps it
  engine_->setOverflowPolicy(policy);
}

void EngineController::setDamagedFramePolicy(pipeline::DamagedFramePolicy policy) {
  config_.damagedFrames = policy;  // as above
  engine_->setDamagedFramePolicy(policy);
}

QString EngineController::setSettings(
    std::shared_ptr<const modality::ProcessingSettings> settings) {
  try {
    engine_->setSettings(std::move(settings));
  } catch (const std::exception& error) {
    return QString::fromStdString(error.what());
  }
  emit settingsChanged();
  return {};
}

QString EngineController::setImagingParams(const ultrasound::ImagingParams& params) {
  return setSettings(ultrasound::makeSettings(params));
}

std::shared_ptr<Image> EngineController::takeFreeFrame() {
  for (const auto& frame : framePool_) {
    if (frame.use_count() == 1) {
      return frame;
    }
  }
  auto frame = std::make_shared<Image>();
  if (framePool_.size() < kPooledFrames) {
    framePool_.push_back(frame);
  }
  return frame;
}

void EngineController::pollFrame() {
  std::shared_ptr<Image> frame = takeFreeFrame();
  frame->pixelsInCineloop = pixelsInCineloop_;
  if (pixelsInCineloop_) {
    const std::optional<acquire::FrameHeader> newest = engine_->cineloop().latest();
    if (!newest || newest->sequence == lastSequence_) {
      return;
    }
    frame->header = *newest;
    frame->geometry = engine_->cineloop().geometry();
    frame->pixels.clear();
  } else if (!engine_->copyLatest(lastSequence_, frame->pixels, frame->header, frame->geometry)) {
    return;
  }
  lastSequence_ = frame->header.sequence;
  ++framesDelivered_;
  emit frameReady(std::move(frame));
}

void EngineController::pollStats() {
  const pipeline::EngineStats stats = engine_->stats();
  emit statsUpdated(stats);
  if (stats.state == pipeline::EngineState::Failed && !failureReported_) {
    failureReported_ = true;
    const QString change = QString::fromStdString(stats.sourceChange);
    const bool followable = !change.isEmpty() && !sourceSpec_.isEmpty() && !isOpening();
    if (followable && follow(change)) {
      return;  // opened again: the run goes on with the new picture
    }
    if (followable) {
      emit errorOccurred(tr("The source's picture changed more than %1 times within %2 s, so it "
                            "is no longer opened again by itself: %3")
                             .arg(kFollowLimit)
                             .arg(kFollowWindow.count())
                             .arg(QString::fromStdString(stats.error)));
    } else {
      emit errorOccurred(tr("The engine failed: %1").arg(QString::fromStdString(stats.error)));
    }
    stop();
  } else if (stats.state == pipeline::EngineState::Finished) {
    stop();  // the source delivered its frame budget
  }
}

}  // namespace cineflow::ui

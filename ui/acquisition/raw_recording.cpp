#include "acquisition/raw_recording.hpp"

#include <QFileInfo>
#include <utility>

#include "bridge/engine_controller.hpp"
#include "modality/modality.hpp"
#include "store/store_error.hpp"

namespace cineflow::ui {
namespace {
constexpr int kWatchIntervalMs = 250;
}

RawRecording::RawRecording(EngineController& controller, QObject* parent)
    : QObject(parent), controller_(controller) {
  watchTimer_.setInterval(kWatchIntervalMs);
  connect(&watchTimer_, &QTimer::timeout, this, &RawRecording::watch);
  connect(&controller_, &EngineController::sourceChanged, this, [this] {
    if (active()) {
      const store::RecorderStats stats = stop();
      // Said with the new source's message (takeEndNote), which would overwrite a message here.
      endNote_ =
          tr("Recording ended with the source: %1 frames in %2").arg(stats.written).arg(path_);
    }
  });
}

RawRecording::~RawRecording() {
  stop();
}

QString RawRecording::takeEndNote() {
  return std::exchange(endNote_, QString());
}

QString RawRecording::start(const QString& path, store::RecordCodec codec) {
  endNote_.clear();
  if (active()) {
    return tr("Already recording to %1").arg(path_);
  }
  const acquire::FrameSource* source = controller_.source();
  if (source == nullptr) {
    return tr("Open a source first: there is nothing to record");
  }
  const modality::Modality& modality = source->modality();
  auto settings = controller_.engine().settings();
  if (!settings) {
    settings = modality.defaultSettings(*source);
  }
  // Lossless unless the operator chose to drop frames (Stay live records every frame too).
  const bool block = controller_.config().overflow != pipeline::OverflowPolicy::Drop;
  store::RecordingLayout layout = modality.recordingLayout(*source, *settings);
  layout.header.study = studyOf(study_);
  try {
    recorder_ = std::make_unique<store::RawRecorder>(
        path.toStdString(), std::move(layout), codec,
        block ? store::RecordPolicy::Block : store::RecordPolicy::Drop, 16,
        store::AttributeMap{{"source", source->describe()}});
  } catch (const std::exception& error) {
    return QString::fromUtf8(error.what());
  }
  path_ = path;
  store::RawRecorder* recorder = recorder_.get();
  controller_.setRawFrameTap(std::make_shared<const pipeline::RawFrameTap>(
      [recorder](const acquire::FrameHeader& header, std::span<const std::byte> frame) {
        recorder->submit(header, frame);
      }));
  watchTimer_.start();
  emit activeChanged(true);
  return {};
}

store::RecorderStats RawRecording::stop() {
  if (!recorder_) {
    return {};
  }
  watchTimer_.stop();
  controller_.setRawFrameTap(nullptr);  // waits for a frame being handed over
  const store::RecorderStats stats = recorder_->stop();
  recorder_.reset();
  emit activeChanged(false);
  return stats;
}

store::RecorderStats RawRecording::stats() const {
  return recorder_ ? recorder_->stats() : store::RecorderStats{};
}

QString RawRecording::summary() const {
  const store::RecorderStats s = stats();
  QString text = tr("REC %1 frames").arg(s.written);
  if (s.compressedBytes > 0) {
    text += tr(" · %1x smaller")
                .arg(static_cast<double>(s.rawBytes) / static_cast<double>(s.compressedBytes), 0,
                     'f', 2);
  }
  if (s.dropped > 0) {
    text += tr(" · %1 not recorded").arg(s.dropped);
  }
  return text;
}

void RawRecording::watch() {
  if (!recorder_) {
    return;
  }
  const store::RecorderStats current = recorder_->stats();
  if (!current.error.empty()) {
    const store::RecorderStats stats = stop();
    emit messageReady(QString::fromStdString(stats.error), true);
  }
}

}  // namespace cineflow::ui

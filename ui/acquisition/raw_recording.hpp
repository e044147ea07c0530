#pragma once
// RawRecording: Acquisition > Record (R) records every raw frame the open source delivers
// (store/raw_recorder.hpp: the modality's recording schema, bitshuffle + LZ4 chunks, sequence
// numbers and timestamps) on the recorder's I/O thread, through the engine's raw-frame tap. The
// engine's overflow policy decides what a slow disk does: Block makes the acquisition wait (no
// frame is lost), Drop counts the frames the disk could not take. A recording holds one
// source's frames: a new source ends it. A write error (a full disk) ends it with the reason,
// the frames so far kept. A recording begun while a study is current (setStudy()) carries it as
// its /study group.

#include <QObject>
#include <QString>
#include <QTimer>
#include <memory>

#include "store/raw_recorder.hpp"
#include "study/current_study.hpp"

namespace cineflow::ui {

class EngineController;

class RawRecording : public QObject {
  Q_OBJECT

 public:
  // The controller must outlive the recording.
  explicit RawRecording(EngineController& controller, QObject* parent = nullptr);
  ~RawRecording() override;  // stop()

  bool active() const { return recorder_ != nullptr; }
  // Starts recording the open source into `path` (a new file). Returns "" or why not (no source,
  // the file exists, the folder is not writable).
  QString start(const QString& path, store::RecordCodec codec = {});
  // Ends the recording: what it holds. Idempotent.
  store::RecorderStats stop();
  store::RecorderStats stats() const;
  QString path() const { return path_; }
  // "REC 123 frames · 1.6x smaller" (with what was not recorded), for the status bar.
  QString summary() const;
  // "Recording ended with the source: N frames in PATH" when the last source change ended the
  // recording, once (then ""): for the window's message about the new source.
  QString takeEndNote();
  // The patient and study recordings begun from now on carry (null: none); it must outlive this.
  void setStudy(const CurrentStudy* study) { study_ = study; }

 signals:
  // After start() and stop(), and when a write error ended the recording.
  void activeChanged(bool active);
  void messageReady(const QString& message, bool isError);

 private:
  void watch();  // a write error ends the recording

  EngineController& controller_;
  const CurrentStudy* study_ = nullptr;
  std::unique_ptr<store::RawRecorder> recorder_;
  QString path_;
  QString endNote_;
  QTimer watchTimer_;
};

}  // namespace cineflow::ui

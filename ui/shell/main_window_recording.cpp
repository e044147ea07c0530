// MainWindow: Acquisition > Record (R), its file dialog and its status bar field.

#include <QAction>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QRegularExpression>
#include <QStatusBar>

#include "acquisition/raw_recording.hpp"
#include "bridge/engine_controller.hpp"
#include "common/app_settings.hpp"
#include "shell/main_window.hpp"

namespace cineflow::ui {
namespace {

const char* const kRecordFolderKey = "recording/folder";
const char* const kRecordCompressionKey = "recording/compression";

// The save dialog's file types choose the recording's compression and its blocks (remembered
// as "bitshuffle-lz4", or "bitshuffle-lz4/2048" with blocks of its own).
struct CompressionChoice {
  store::RecordCompression compression;
  std::size_t blockBytes;  // 0: the codec's default
  const char* filter;
};
constexpr CompressionChoice kCompressionChoices[] = {
    {store::RecordCompression::BitshuffleLz4, 0,
     QT_TRANSLATE_NOOP("MainWindow", "HDF5 bitshuffle + LZ4, smallest (*.h5)")},
    {store::RecordCompression::BitshuffleLz4, 2048,
     QT_TRANSLATE_NOOP("MainWindow",
                       "HDF5 bitshuffle + LZ4 in 2 KiB blocks, fastest GPU replay (*.h5)")},
    {store::RecordCompression::Lz4, 0, QT_TRANSLATE_NOOP("MainWindow", "HDF5 LZ4 (*.h5)")},
    {store::RecordCompression::None, 0,
     QT_TRANSLATE_NOOP("MainWindow", "HDF5 uncompressed, fastest to write (*.h5)")},
};
QString choiceKey(const CompressionChoice& choice) {
  QString key = QString::fromLatin1(store::toString(choice.compression));
  if (choice.blockBytes > 0) {
    key += QStringLiteral("/%1").arg(choice.blockBytes);
  }
  return key;
}
const char* const kRecordingStyle = "color: #e0605a; font-weight: bold;";

// "<source>_raw_<date>_<time>.h5" in `folder`: a new name for every recording.
QString suggestedRecordingPath(const QString& folder, const QString& sourceDescription) {
  QString stem = sourceDescription.section(QLatin1Char(' '), 0, 0);
  stem = QFileInfo(stem).completeBaseName();
  stem.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_-]")), QStringLiteral("_"));
  if (stem.isEmpty()) {
    stem = QStringLiteral("recording");
  }
  return QDir(folder).filePath(
      QStringLiteral("%1_raw_%2.h5")
          .arg(stem, QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd_HHmmss"))));
}

}  // namespace

void MainWindow::createRecording() {
  recording_ = new RawRecording(*controller_, this);
  recording_->setStudy(study_);
  recordLabel_ = new QLabel(this);
  recordLabel_->setObjectName(QStringLiteral("recordingState"));
  recordLabel_->setStyleSheet(QString::fromLatin1(kRecordingStyle));
  recordLabel_->setToolTip(tr("Raw frames recorded to the file being written"));
  recordLabel_->hide();
  statusBar()->addPermanentWidget(recordLabel_);
  connect(recording_, &RawRecording::messageReady, this, &MainWindow::showMessage);
  connect(recording_, &RawRecording::activeChanged, this, [this](bool active) {
    recordAction_->setChecked(active);
    recordLabel_->setVisible(active);
    recordLabel_->setText(recording_->summary());
  });
  connect(controller_.get(), &EngineController::statsUpdated, this, [this] {
    if (recording_->active()) {
      recordLabel_->setText(recording_->summary());
      recordLabel_->setToolTip(recording_->path());
    }
  });
  connect(recordAction_, &QAction::triggered, this, [this](bool checked) {
    if (!checked) {
      stopRecording();
      return;
    }
    recordAction_->setChecked(false);  // until a recording really starts
    const auto settings = openAppSettings();
    const QString folder =
        settings->value(QString::fromLatin1(kRecordFolderKey), QDir::homePath()).toString();
    QStringList filters;
    QString selected;
    const QString remembered =
        settings
            ->value(QString::fromLatin1(kRecordCompressionKey), QStringLiteral("bitshuffle-lz4"))
            .toString();
    for (const CompressionChoice& choice : kCompressionChoices) {
      filters << tr(choice.filter);
      if (remembered == choiceKey(choice)) {
        selected = filters.back();
      }
    }
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Record raw frames to"),
        suggestedRecordingPath(folder, controller_->sourceDescription()),
        filters.join(QStringLiteral(";;")), &selected, QFileDialog::DontConfirmOverwrite);
    if (path.isEmpty()) {
      return;
    }
    const CompressionChoice* chosen = &kCompressionChoices[0];
    for (const CompressionChoice& choice : kCompressionChoices) {
      if (selected == tr(choice.filter)) {
        chosen = &choice;
      }
    }
    settings->setValue(QString::fromLatin1(kRecordFolderKey), QFileInfo(path).absolutePath());
    settings->setValue(QString::fromLatin1(kRecordCompressionKey), choiceKey(*chosen));
    startRecording(path, store::RecordCodec(chosen->compression, chosen->blockBytes));
  });
}

QString MainWindow::startRecording(const QString& path, store::RecordCodec codec) {
  const QString error = recording_->start(path, codec);
  if (!error.isEmpty()) {
    showMessage(tr("Cannot record: %1").arg(error), true);
    return error;
  }
  showMessage(tr("Recording raw frames to %1").arg(path), false);
  return {};
}

void MainWindow::stopRecording() {
  const QString path = recording_->path();
  const store::RecorderStats stats = recording_->stop();
  if (!stats.error.empty()) {
    showMessage(QString::fromStdString(stats.error), true);
    return;
  }
  QString text = tr("Recorded %1 frames to %2").arg(stats.written).arg(path);
  if (stats.dropped > 0) {
    text += tr(" (%1 frames the disk could not take were not recorded)").arg(stats.dropped);
  }
  showMessage(text, false);
}

}  // namespace cineflow::ui

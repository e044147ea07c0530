// The panel's widgets and what they show; the review logic is in cineloop_panel.cpp.

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include <QAction>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QStandardPaths>
#include <QToolButton>
#include <QVBoxLayout>

#include "cineloop/cineloop_panel.hpp"
#include "common/media_icons.hpp"
#include "export/cineloop_export.hpp"
#include "export/export_target.hpp"
#include "export/pacs_upload.hpp"
#include "measure/measurement_list.hpp"
#include "store/bmode_writer.hpp"

namespace cineflow::ui {
namespace {

constexpr std::array kSpeeds{0.25, 0.5, 1.0, 2.0, 4.0};
constexpr int kNormalSpeedIndex = 2;

QToolButton* makeButton(QAction* action, QWidget* parent) {
  auto* button = new QToolButton(parent);
  button->setDefaultAction(action);
  return button;
}

}  // namespace

void CineloopPanel::buildControls() {
  setObjectName(QStringLiteral("cineloopPanel"));
  stepBackAction_ = new QAction(mediaIcon(MediaIcon::StepBack), tr("Step back"), this);
  stepBackAction_->setToolTip(tr("One frame older"));
  stepForwardAction_ = new QAction(mediaIcon(MediaIcon::StepForward), tr("Step forward"), this);
  stepForwardAction_->setToolTip(tr("One frame newer"));
  playPauseAction_ = new QAction(mediaIcon(MediaIcon::Play), tr("Play / pause"), this);
  playPauseAction_->setToolTip(tr("Play the cineloop in a loop, at the acquisition's pace"));
  playPauseAction_->setCheckable(true);
  connect(stepBackAction_, &QAction::triggered, this, &CineloopPanel::stepBack);
  connect(stepForwardAction_, &QAction::triggered, this, &CineloopPanel::stepForward);
  connect(playPauseAction_, &QAction::toggled, this, &CineloopPanel::setPlaying);

  timeline_ = new QSlider(Qt::Horizontal, this);
  timeline_->setObjectName(QStringLiteral("cineloopTimeline"));
  timeline_->setToolTip(tr("Kept frames, oldest on the left"));
  connect(timeline_, &QSlider::valueChanged, this, [this](int index) {
    if (!live_ && index != current_) {
      setPlaying(false);  // the operator took over
      showIndex(index);
    }
  });
  position_ = new QLabel(this);
  position_->setObjectName(QStringLiteral("cineloopPosition"));
  position_->setMinimumWidth(position_->fontMetrics().horizontalAdvance(
      QStringLiteral("seq 000000 \u00b7 t = +000.000 s   0000 / 0000")));

  stepBackButton_ = makeButton(stepBackAction_, this);
  playButton_ = makeButton(playPauseAction_, this);
  stepForwardButton_ = makeButton(stepForwardAction_, this);
  speed_ = new QComboBox(this);
  speed_->setObjectName(QStringLiteral("cineloopSpeed"));
  speed_->setToolTip(tr("Playback speed relative to the acquisition"));
  for (const double speed : kSpeeds) {
    speed_->addItem(QStringLiteral("%1\u00d7").arg(speed), speed);
  }
  speed_->setCurrentIndex(kNormalSpeedIndex);
  exportButton_ = new QToolButton(this);
  exportButton_->setObjectName(QStringLiteral("cineloopExport"));
  exportButton_->setText(tr("Export\u2026"));
  exportButton_->setToolTip(
      tr("Write every kept frame as pictures (PNG, as on screen) or as data (HDF5) into a new "
         "folder or file named after the recording and the time"));
  connect(exportButton_, &QToolButton::clicked, this, &CineloopPanel::chooseExport);
  connect(this, &CineloopPanel::exportProgress, exportButton_, [this](int done, int total) {
    exportButton_->setText(tr("Exporting %1 / %2\u2026").arg(done).arg(total));
  });

  auto* timelineRow = new QHBoxLayout;
  timelineRow->addWidget(timeline_, 1);
  timelineRow->addWidget(position_);
  auto* controlRow = new QHBoxLayout;
  controlRow->addWidget(stepBackButton_);
  controlRow->addWidget(playButton_);
  controlRow->addWidget(stepForwardButton_);
  controlRow->addSpacing(12);
  controlRow->addWidget(new QLabel(tr("Speed"), this));
  controlRow->addWidget(speed_);
  controlRow->addStretch(1);
  controlRow->addWidget(exportButton_);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(timelineRow);
  layout->addLayout(controlRow);
}

double CineloopPanel::playbackSpeed() const {
  return speed_->currentData().toDouble();
}

QString CineloopPanel::positionText() const {
  return position_->text();
}

void CineloopPanel::setPlaybackSpeed(double speed) {
  if (!(speed > 0)) {
    return;
  }
  const auto nearest =
      std::min_element(kSpeeds.begin(), kSpeeds.end(), [speed](double a, double b) {
        return std::abs(std::log(a / speed)) < std::abs(std::log(b / speed));
      });
  speed_->setCurrentIndex(static_cast<int>(nearest - kSpeeds.begin()));
}

CineloopExportRequest CineloopPanel::exportRequest(CineloopExportFormat format,
                                                   const QString& target, bool annotations) const {
  CineloopExportRequest request;
  request.format = format;
  request.target = target;
  request.picture = {{gainDb_, dynamicRangeDb_, colourMap_, flowLook_, depthGain_}, annotations};
  if (measurements_ != nullptr) {
    request.measurements = measurements_->ofView(measurementView_);
  }
  const std::optional<store::StudyInfo> study = studyOf(study_);
  if (study) {
    request.patient = dicomPatientOf(*study);
  }
  if (format == CineloopExportFormat::Hdf5) {
    const acquire::FrameSource* source = engine_.source();
    const auto settings = engine_.settings();
    if (source != nullptr && settings != nullptr) {
      request.metadata = source->modality().describe(*source, *settings);
    }
    request.metadata.study = study;
    request.attributes["source"] = recording_.toStdString();
    request.attributes["exported_from"] = std::string("cineloop");
  }
  return request;
}

bool CineloopPanel::startExport(const CineloopExportRequest& request) {
  if (isExporting()) {
    emit messageReady(tr("A cineloop export is already running"), true);
    return false;
  }
  setPlaying(false);
  exportButton_->setText(tr("Exporting\u2026"));
  pacsFile_ = request.format == CineloopExportFormat::Dicom && request.sendToPacs ? request.target
                                                                                  : QString();
  const pipeline::Cineloop& cineloop = engine_.cineloop();
  exportJob_.start([&cineloop, request](BackgroundJob& job) {
    const CineloopExportResult result = exportCineloop(
        cineloop, request, [&job](int done, int total) { job.progress(done, total); },
        job.cancelFlag());
    return BackgroundJob::Result{result.ok, result.message};
  });
  updateControls();
  return true;
}

void CineloopPanel::finishExport(bool ok, const QString& message) {
  exportButton_->setText(tr("Export\u2026"));
  updateControls();
  emit messageReady(message, !ok);
  emit exportFinished(ok, message);
  const QString toSend = std::exchange(pacsFile_, QString());
  if (ok && !toSend.isEmpty() && pacsUpload_ != nullptr) {
    if (!pacsUpload_->sendToSavedPacs({toSend})) {
      emit messageReady(tr("%1 was written but not sent to a PACS (no PACS set, or a send is "
                           "running): File > Send to PACS… sends it later")
                            .arg(QDir::toNativeSeparators(toSend)),
                        true);
    }
  }
}

void CineloopPanel::updateControls() {
  const bool reviewable = !live_ && !entries_.empty();
  timeline_->setEnabled(reviewable);
  playPauseAction_->setEnabled(reviewable);
  stepBackAction_->setEnabled(reviewable && current_ > 0);
  stepForwardAction_->setEnabled(reviewable && current_ + 1 < entryCount());
  speed_->setEnabled(reviewable);
  exportButton_->setEnabled(reviewable && !isExporting());
}

void CineloopPanel::updatePosition() {
  if (current_ < 0 || entries_.empty()) {
    position_->setText(live_ ? tr("Live") : tr("No frames kept"));
    return;
  }
  const auto& entry = entries_[static_cast<std::size_t>(current_)];
  const double seconds =
      static_cast<double>(entry.timestampNs - entries_.front().timestampNs) * 1e-9;
  const QString text = QStringLiteral("seq %1 \u00b7 t = %2%3 s   %4 / %5")
                           .arg(entry.sequence)
                           .arg(seconds >= 0 ? QStringLiteral("+") : QString())
                           .arg(seconds, 0, 'f', 3)
                           .arg(current_ + 1)
                           .arg(entryCount());
  position_->setText(live_ ? tr("Live \u00b7 %1").arg(text) : text);
}

void CineloopPanel::chooseExport() {
  setPlaying(false);
  if (lastExport_.folder.isEmpty()) {
    lastExport_.folder = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    if (!QFileInfo(lastExport_.folder).isDir()) {
      lastExport_.folder = QDir::homePath();
    }
  }
  // The DICOM fields start from the study being scanned; with none, from what was typed last,
  // unless that was an ended study's.
  const std::optional<store::StudyInfo> study = studyOf(study_);
  if (study) {
    lastExport_.patient = dicomPatientOf(*study);
  } else if (!lastExport_.patient.study.studyInstanceUid.empty()) {
    lastExport_.patient = {};
  }
  CineloopExportDialog dialog(entryCount(), exportStem(recording_, QDateTime::currentDateTime()),
                              lastExport_, acquisitionRateHz(entries_), currentSequence(), this);
  if (dialog.exec() != QDialog::Accepted) {
    return;
  }
  lastExport_ = dialog.choice();
  CineloopExportRequest request =
      exportRequest(lastExport_.format, dialog.target(), lastExport_.annotations);
  request.videoFramesPerSecond = lastExport_.videoFramesPerSecond;
  request.picture.measurements = lastExport_.measurements;
  request.patient = lastExport_.patient;
  if (lastExport_.onlyShownFrame) {
    request.onlyFrame = currentSequence();
  }
  request.sendToPacs = lastExport_.sendToPacs;
  startExport(request);
}

}  // namespace cineflow::ui

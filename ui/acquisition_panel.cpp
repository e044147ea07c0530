#include "acquisition_panel.hpp"

#include <algorithm>
#include <limits>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "engine_controller.hpp"
#include "imaging_panel.hpp"

namespace cineflow::ui {
namespace {

constexpr double kMaxFrameRateHz = 100'000.0;
const QString kAlertStyle = QStringLiteral("color: #ff6060; font-weight: bold;");
// How long the dropped-frame alert stays after the last drop.
constexpr qint64 kAlertHoldMs = 3000;

}  // namespace

AcquisitionPanel::AcquisitionPanel(EngineController& controller, QWidget* parent)
    : QWidget(parent), controller_(controller) {
  setObjectName(QStringLiteral("acquisitionPanel"));
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(createSourceGroup());
  layout->addWidget(createAcquisitionGroup());
  imaging_ = new ImagingPanel(controller_, this);
  layout->addWidget(imaging_);
  layout->addStretch(1);

  connect(&controller_, &EngineController::sourceOpened, this, &AcquisitionPanel::onSourceOpened);
  connect(&controller_, &EngineController::runningChanged, this,
          &AcquisitionPanel::onRunningChanged);
  connect(&controller_, &EngineController::statsUpdated, this, &AcquisitionPanel::onStatsUpdated);
  onRunningChanged(controller_.isRunning());
}

QWidget* AcquisitionPanel::createSourceGroup() {
  auto* group = new QGroupBox(tr("Source"), this);
  auto* layout = new QVBoxLayout(group);
  sourceLabel_ = new QLabel(tr("No source open"), group);
  sourceLabel_->setObjectName(QStringLiteral("sourceLabel"));
  sourceLabel_->setWordWrap(true);
  auto* simulator = new QPushButton(tr("Simulator"), group);
  simulator->setObjectName(QStringLiteral("simulatorButton"));
  simulator->setToolTip(tr("Acquire from the built-in phantom simulator"));
  auto* file = new QPushButton(tr("RF file…"), group);
  file->setObjectName(QStringLiteral("openFileButton"));
  file->setToolTip(tr("Replay a recorded RF file (cineflow.rf/1)"));
  connect(simulator, &QPushButton::clicked, this,
          [this] { emit openRequested(QStringLiteral("sim")); });
  connect(file, &QPushButton::clicked, this, &AcquisitionPanel::chooseRecording);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(simulator);
  buttons->addWidget(file);
  layout->addWidget(sourceLabel_);
  layout->addLayout(buttons);
  return group;
}

QWidget* AcquisitionPanel::createAcquisitionGroup() {
  auto* group = new QGroupBox(tr("Acquisition"), this);
  auto* layout = new QFormLayout(group);

  start_ = new QPushButton(tr("Start"), group);
  start_->setObjectName(QStringLiteral("startButton"));
  stop_ = new QPushButton(tr("Stop"), group);
  stop_->setObjectName(QStringLiteral("stopButton"));
  freeze_ = new QPushButton(tr("Freeze"), group);
  freeze_->setObjectName(QStringLiteral("freezeButton"));
  freeze_->setToolTip(tr("Stop acquiring and review the cineloop"));
  connect(start_, &QPushButton::clicked, &controller_, [this] { controller_.start(); });
  connect(stop_, &QPushButton::clicked, &controller_, [this] { controller_.stop(); });
  connect(freeze_, &QPushButton::clicked, this, &AcquisitionPanel::freezeRequested);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(start_);
  buttons->addWidget(stop_);
  buttons->addWidget(freeze_);
  layout->addRow(buttons);

  frameRate_ = new QDoubleSpinBox(group);
  frameRate_->setObjectName(QStringLiteral("frameRateBox"));
  frameRate_->setRange(0.0, kMaxFrameRateHz);
  frameRate_->setDecimals(1);
  frameRate_->setSingleStep(5.0);
  frameRate_->setSuffix(QStringLiteral(" Hz"));
  frameRate_->setSpecialValueText(tr("source rate"));
  // A new rate restarts acquisition: apply it when the operator is done typing, not per digit.
  frameRate_->setKeyboardTracking(false);
  frameRate_->setToolTip(tr("Pacing rate; changing it briefly stops and restarts acquisition"));
  connect(frameRate_, &QDoubleSpinBox::valueChanged, &controller_,
          [this](double hz) { controller_.setFrameRate(hz); });
  layout->addRow(tr("Frame rate"), frameRate_);

  overflow_ = new QComboBox(group);
  overflow_->setObjectName(QStringLiteral("overflowBox"));
  overflow_->addItem(tr("Block (lose nothing)"), static_cast<int>(pipeline::OverflowPolicy::Block));
  overflow_->addItem(tr("Drop (stay live)"), static_cast<int>(pipeline::OverflowPolicy::Drop));
  overflow_->setCurrentIndex(controller_.config().overflow == pipeline::OverflowPolicy::Drop);
  connect(overflow_, &QComboBox::currentIndexChanged, &controller_, [this] {
    controller_.setOverflowPolicy(
        static_cast<pipeline::OverflowPolicy>(overflow_->currentData().toInt()));
  });
  layout->addRow(tr("When behind"), overflow_);

  droppedCount_ = new QLabel(QStringLiteral("0"), group);
  droppedCount_->setObjectName(QStringLiteral("droppedCount"));
  layout->addRow(tr("Dropped"), droppedCount_);
  droppedAlert_ = new QLabel(group);
  droppedAlert_->setObjectName(QStringLiteral("droppedAlert"));
  droppedAlert_->setStyleSheet(kAlertStyle);
  droppedAlert_->setWordWrap(true);
  droppedAlert_->hide();
  layout->addRow(droppedAlert_);
  return group;
}

void AcquisitionPanel::setOverflowPolicy(pipeline::OverflowPolicy policy) {
  overflow_->setCurrentIndex(overflow_->findData(static_cast<int>(policy)));
}

void AcquisitionPanel::chooseRecording() {
  const QString path =
      QFileDialog::getOpenFileName(this, tr("Open RF recording"), QString(),
                                   tr("RF recordings (*.h5 *.hdf5 *.mat);;All files (*)"));
  if (!path.isEmpty()) {
    emit openRequested(path);
  }
}

void AcquisitionPanel::onSourceOpened(const QString& description) {
  sourceLabel_->setText(description);
  sourceLabel_->setToolTip(description);
  frameRate_->setSpecialValueText(
      tr("source rate (%1 Hz)").arg(controller_.sourceFrameRateHz(), 0, 'g', 4));
}

void AcquisitionPanel::onRunningChanged(bool running) {
  start_->setEnabled(!running && controller_.hasSource());
  stop_->setEnabled(running);
  freeze_->setEnabled(running);
  if (running) {
    // The engine counts drops per run.
    droppedSeen_ = 0;
    droppedCount_->setText(QStringLiteral("0"));
    droppedAlert_->hide();
  }
}

void AcquisitionPanel::onStatsUpdated(const pipeline::EngineStats& stats) {
  droppedCount_->setText(QString::number(stats.dropped));
  if (stats.dropped <= droppedSeen_) {
    // The alert stays while frames keep dropping and clears once they have stopped for a while
    // (the count above keeps the total).
    if (droppedAlert_->isVisible() && lastDrop_.elapsed() > kAlertHoldMs) {
      droppedAlert_->hide();
    }
  } else {
    droppedSeen_ = stats.dropped;
    lastDrop_.start();
    droppedAlert_->setText(tr(
        "⚠ %n frame(s) dropped: processing cannot keep up with the "
        "frame rate",
        nullptr,
        static_cast<int>(std::min<std::uint64_t>(stats.dropped, std::numeric_limits<int>::max()))));
    droppedAlert_->show();
  }
}

}  // namespace cineflow::ui

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
#include <QStandardItemModel>
#include <QVBoxLayout>

#include "engine_controller.hpp"
#include "process/imaging_params.hpp"

namespace cineflow::ui {
namespace {

constexpr double kMmPerM = 1e3;
constexpr double kMaxFrameRateHz = 100'000.0;
// Wide enough for any probe and depth; the engine's validation decides what is sensible.
constexpr double kMaxExtentMm = 500.0;
const QString kAlertStyle = QStringLiteral("color: #ff6060; font-weight: bold;");
// How long the dropped-frame alert stays after the last drop.
constexpr qint64 kAlertHoldMs = 3000;
const QString kErrorStyle = QStringLiteral("color: #ff7070;");

QDoubleSpinBox* millimetreBox(QWidget* parent, double minimum, const QString& objectName) {
  auto* box = new QDoubleSpinBox(parent);
  box->setObjectName(objectName);
  box->setRange(minimum, kMaxExtentMm);
  box->setDecimals(1);
  box->setSingleStep(1.0);
  box->setSuffix(QStringLiteral(" mm"));
  return box;
}

}  // namespace

AcquisitionPanel::AcquisitionPanel(EngineController& controller, QWidget* parent)
    : QWidget(parent), controller_(controller) {
  setObjectName(QStringLiteral("acquisitionPanel"));
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(createSourceGroup());
  layout->addWidget(createAcquisitionGroup());
  layout->addWidget(createImagingGroup());
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

QWidget* AcquisitionPanel::createImagingGroup() {
  auto* group = new QGroupBox(tr("Imaging"), this);
  auto* layout = new QFormLayout(group);

  mode_ = new QComboBox(group);
  mode_->setObjectName(QStringLiteral("modeBox"));
  mode_->addItem(tr("RF"), static_cast<int>(process::ImagingMode::Rf));
  mode_->addItem(tr("I/Q"), static_cast<int>(process::ImagingMode::Iq));
  mode_->setToolTip(
      tr("RF: bandpass, delay-and-sum on RF, Hilbert envelope. I/Q: demodulation, delay-and-sum "
         "on I/Q with phase rotation, |IQ| (needed for RF sampled below 2 x f0). Applied live."));
  connect(mode_, &QComboBox::currentIndexChanged, this, &AcquisitionPanel::applyMode);
  layout->addRow(tr("Mode"), mode_);
  modeNote_ = new QLabel(group);
  modeNote_->setObjectName(QStringLiteral("modeNote"));
  modeNote_->setWordWrap(true);
  modeNote_->hide();
  layout->addRow(modeNote_);

  fNumber_ = new QDoubleSpinBox(group);
  fNumber_->setObjectName(QStringLiteral("fNumberBox"));
  fNumber_->setRange(0.1, 20.0);
  fNumber_->setDecimals(2);
  fNumber_->setSingleStep(0.1);
  fNumber_->setToolTip(tr("Receive aperture = depth / f-number (applied live)"));
  connect(fNumber_, &QDoubleSpinBox::valueChanged, this, &AcquisitionPanel::applyFNumber);
  layout->addRow(tr("f-number"), fNumber_);

  // No cross-field limits here: the engine validates the grid and the panel shows its reason.
  depthStart_ = millimetreBox(group, 0.0, QStringLiteral("depthStartBox"));
  depthEnd_ = millimetreBox(group, 0.0, QStringLiteral("depthEndBox"));
  lateralStart_ = millimetreBox(group, -kMaxExtentMm, QStringLiteral("lateralStartBox"));
  lateralEnd_ = millimetreBox(group, -kMaxExtentMm, QStringLiteral("lateralEndBox"));
  layout->addRow(tr("Depth from"), depthStart_);
  layout->addRow(tr("Depth to"), depthEnd_);
  layout->addRow(tr("Lateral from"), lateralStart_);
  layout->addRow(tr("Lateral to"), lateralEnd_);

  applyGrid_ = new QPushButton(tr("Apply grid"), group);
  applyGrid_->setObjectName(QStringLiteral("applyGridButton"));
  applyGrid_->setToolTip(tr("Reconstruct on the new grid (applied live, between frames)"));
  connect(applyGrid_, &QPushButton::clicked, this, &AcquisitionPanel::applyGrid);
  layout->addRow(applyGrid_);

  imagingError_ = new QLabel(group);
  imagingError_->setObjectName(QStringLiteral("imagingError"));
  imagingError_->setStyleSheet(kErrorStyle);
  imagingError_->setWordWrap(true);
  imagingError_->hide();
  layout->addRow(imagingError_);
  group->setEnabled(false);  // until a source is open: the grid's limits depend on it
  imagingGroup_ = group;
  return group;
}

QString AcquisitionPanel::modeNote() const {
  return modeNote_->isHidden() ? QString() : modeNote_->text();
}

QString AcquisitionPanel::imagingError() const {
  return imagingError_->isHidden() ? QString() : imagingError_->text();
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
  imagingGroup_->setEnabled(true);
  loadImagingParams();
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

void AcquisitionPanel::loadImagingParams() {
  const process::ImagingParams params = controller_.imagingParams();
  loading_ = true;
  mode_->setCurrentIndex(mode_->findData(static_cast<int>(params.mode)));
  // RF sampled below 2 f0 can only be imaged in I/Q mode: say so, and offer nothing else.
  const acquire::AcquisitionParams* acq = controller_.engine().acquisitionParams();
  const QString note =
      acq != nullptr ? QString::fromStdString(process::bandpassSamplingNotice(*acq)) : QString();
  modeNote_->setText(note.isEmpty() ? QString() : tr("The RF is %1.").arg(note));
  modeNote_->setVisible(!note.isEmpty());
  if (auto* model = qobject_cast<QStandardItemModel*>(mode_->model())) {
    model->item(mode_->findData(static_cast<int>(process::ImagingMode::Rf)))
        ->setEnabled(note.isEmpty());
  }
  fNumber_->setValue(params.fNumber);
  depthStart_->setValue(params.grid.z0 * kMmPerM);
  depthEnd_->setValue(params.grid.z1 * kMmPerM);
  lateralStart_->setValue(params.grid.x0 * kMmPerM);
  lateralEnd_->setValue(params.grid.x1 * kMmPerM);
  loading_ = false;
  showImagingResult({});
}

void AcquisitionPanel::applyMode(int index) {
  if (loading_ || index < 0) {
    return;
  }
  process::ImagingParams params = controller_.imagingParams();
  params.mode = static_cast<process::ImagingMode>(mode_->itemData(index).toInt());
  showImagingResult(controller_.setImagingParams(params));
}

void AcquisitionPanel::applyFNumber(double fNumber) {
  if (loading_) {
    return;
  }
  process::ImagingParams params = controller_.imagingParams();
  params.fNumber = fNumber;
  showImagingResult(controller_.setImagingParams(params));
}

void AcquisitionPanel::applyGrid() {
  process::ImagingParams params = controller_.imagingParams();
  params.grid.z0 = depthStart_->value() / kMmPerM;
  params.grid.z1 = depthEnd_->value() / kMmPerM;
  params.grid.x0 = lateralStart_->value() / kMmPerM;
  params.grid.x1 = lateralEnd_->value() / kMmPerM;
  showImagingResult(controller_.setImagingParams(params));
}

void AcquisitionPanel::showImagingResult(const QString& error) {
  imagingError_->setText(error.isEmpty() ? QString() : tr("Not applied: %1").arg(error));
  imagingError_->setVisible(!error.isEmpty());
}

}  // namespace cineflow::ui

#include "acquisition/acquisition_panel.hpp"

#include <algorithm>
#include <functional>
#include <limits>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "acquisition/igtl_panel.hpp"
#include "acquisition/source_dialog.hpp"
#include "bridge/engine_controller.hpp"
#include "common/file_dialogs.hpp"

namespace cineflow::ui {
namespace {

constexpr double kMaxFrameRateHz = 100'000.0;
const QString kAlertStyle = QStringLiteral("color: #ff6060; font-weight: bold;");
// How long the dropped-frame alert stays after the last drop.
constexpr qint64 kAlertHoldMs = 3000;
constexpr std::uint64_t kRoomForDrops = 1'000'000;

// The pacing rate, where 0 stands for the source's own rate: the arrows step through the rates in
// order, the source's included (up from "source rate (20 Hz)" is 25 Hz, down 15 Hz; a step onto
// or across the source's rate stops there).
class FrameRateBox : public QDoubleSpinBox {
 public:
  FrameRateBox(std::function<double()> sourceRateHz, QWidget* parent)
      : QDoubleSpinBox(parent), sourceRateHz_(std::move(sourceRateHz)) {}

  void stepBy(int steps) override {
    const double source = sourceRateHz_();
    if (source <= 0.0) {
      QDoubleSpinBox::stepBy(steps);
      return;
    }
    const double from = value() > 0.0 ? value() : source;
    const double to =
        std::clamp(from + steps * singleStep(), std::min(singleStep(), source), maximum());
    const bool reachesSource = (from - source) * (to - source) <= 0.0 && from != source;
    setValue(reachesSource ? 0.0 : to);
    selectAll();
  }

 protected:
  StepEnabled stepEnabled() const override {
    if (sourceRateHz_() <= 0.0 || value() > 0.0) {
      return QDoubleSpinBox::stepEnabled();
    }
    return StepUpEnabled | StepDownEnabled;  // around the source's rate
  }

 private:
  std::function<double()> sourceRateHz_;
};

}  // namespace

AcquisitionPanel::AcquisitionPanel(EngineController& controller, QWidget* parent)
    : QWidget(parent), controller_(controller) {
  setObjectName(QStringLiteral("acquisitionPanel"));
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(createSourceGroup());
  layout->addWidget(createAcquisitionGroup());
  igtl_ = new IgtlPanel(controller_, this);
  for (const ModalityUi* modality : modalityUis()) {
    // Each panel shows itself for its modality's sources.
    std::unique_ptr<ModalityPanels> panels = modality->createPanels(controller_, *this);
    for (QWidget* widget : panels->widgets()) {
      layout->addWidget(widget);
    }
    modalityPanels_.push_back({modality, std::move(panels)});
  }
  layout->addWidget(igtl_);
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
  liveStatus_ = new QLabel(group);
  liveStatus_->setObjectName(QStringLiteral("liveStatus"));
  liveStatus_->setWordWrap(true);
  liveStatus_->setStyleSheet(kAlertStyle);
  liveStatus_->hide();
  // The modalities' sources (their simulators), then a recording of any, two to a row.
  auto* buttons = new QGridLayout;
  int placed = 0;
  const auto place = [&](QPushButton* button) {
    buttons->addWidget(button, placed / 2, placed % 2);
    ++placed;
  };
  for (const ModalityUi* modality : modalityUis()) {
    for (const SourceButton& source : modality->sourceButtons()) {
      auto* button = new QPushButton(source.label, group);
      button->setObjectName(source.objectName);
      button->setToolTip(source.toolTip);
      connect(button, &QPushButton::clicked, this,
              [this, spec = source.spec] { emit openRequested(spec); });
      place(button);
    }
  }
  auto* file = new QPushButton(tr("Recording…"), group);
  file->setObjectName(QStringLiteral("openFileButton"));
  file->setToolTip(
      tr("Replay a recording (cineflow.rf/1, cineflow.oct/1 or cineflow.received/1), or import a "
         "MATLAB file"));
  connect(file, &QPushButton::clicked, this, &AcquisitionPanel::chooseRecording);
  place(file);
  auto* lab = new QPushButton(tr("Lab source…"), group);
  lab->setObjectName(QStringLiteral("labSourceButton"));
  lab->setToolTip(
      tr("A lab's own scanner or digitizer through a source plugin, or frames "
         "streamed over the network"));
  connect(lab, &QPushButton::clicked, this, &AcquisitionPanel::chooseLabSource);
  layout->addWidget(sourceLabel_);
  layout->addWidget(liveStatus_);
  layout->addLayout(buttons);
  layout->addWidget(lab);
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

  frameRate_ = new FrameRateBox([this] { return controller_.sourceFrameRateHz(); }, group);
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
  overflow_->addItem(tr("Auto"), kAutoPolicy);
  overflow_->setItemData(
      0,
      tr("A live source (simulator, camera, stream, script) stays live, every frame recorded; "
         "a replay images every frame"),
      Qt::ToolTipRole);
  overflow_->addItem(tr("Stay live"), static_cast<int>(pipeline::OverflowPolicy::Latest));
  overflow_->setItemData(1,
                         tr("The image shows the newest frame; frames processing had no time for "
                            "are not imaged (counted), but every frame is recorded"),
                         Qt::ToolTipRole);
  overflow_->addItem(tr("Image every frame"), static_cast<int>(pipeline::OverflowPolicy::Block));
  overflow_->setItemData(2,
                         tr("Every frame is imaged; a live source waits, and the image falls "
                            "behind when processing cannot keep up"),
                         Qt::ToolTipRole);
  overflow_->addItem(tr("Drop frames"), static_cast<int>(pipeline::OverflowPolicy::Drop));
  overflow_->setItemData(3,
                         tr("Frames that arrive with no free slot are lost, to recording too "
                            "(counted)"),
                         Qt::ToolTipRole);
  overflow_->setCurrentIndex(controller_.overflowAuto() ? 0
                                                        : overflow_->findData(static_cast<int>(
                                                              controller_.config().overflow)));
  connect(overflow_, &QComboBox::currentIndexChanged, &controller_, [this] {
    const int chosen = overflow_->currentData().toInt();
    if (chosen == kAutoPolicy) {
      controller_.setAutoOverflowPolicy();
    } else {
      controller_.setOverflowPolicy(static_cast<pipeline::OverflowPolicy>(chosen));
    }
  });
  layout->addRow(tr("When behind"), overflow_);

  droppedCount_ = new QLabel(QStringLiteral("0"), group);
  droppedCount_->setObjectName(QStringLiteral("droppedCount"));
  layout->addRow(tr("Dropped"), droppedCount_);
  notImagedCount_ = new QLabel(QStringLiteral("0"), group);
  notImagedCount_->setObjectName(QStringLiteral("notImagedCount"));
  notImagedCount_->setToolTip(
      tr("Frames recorded but not imaged: the image went to a newer frame (Stay live)"));
  layout->addRow(tr("Not imaged"), notImagedCount_);

  damaged_ = new QComboBox(group);
  damaged_->setObjectName(QStringLiteral("damagedBox"));
  damaged_->addItem(tr("Stop the replay"), static_cast<int>(pipeline::DamagedFramePolicy::Stop));
  damaged_->addItem(tr("Skip the frame"), static_cast<int>(pipeline::DamagedFramePolicy::Skip));
  damaged_->setCurrentIndex(
      damaged_->findData(static_cast<int>(controller_.config().damagedFrames)));
  damaged_->setToolTip(
      tr("A replayed frame whose stored bytes are damaged (a corrupt chunk, a checksum that does "
         "not match): stop the replay and name it, or leave it out, count it and go on"));
  connect(damaged_, &QComboBox::currentIndexChanged, &controller_, [this] {
    controller_.setDamagedFramePolicy(
        static_cast<pipeline::DamagedFramePolicy>(damaged_->currentData().toInt()));
  });
  layout->addRow(tr("Damaged frame"), damaged_);
  damagedCount_ = new QLabel(QStringLiteral("0"), group);
  damagedCount_->setObjectName(QStringLiteral("damagedCount"));
  layout->addRow(tr("Skipped"), damagedCount_);
  // The alert's room stays while it is hidden, so the controls below do not jump under the
  // cursor when it comes and goes (a box layout keeps a hidden widget's room; a form does not).
  auto* alertRoom = new QWidget(group);
  auto* alertLayout = new QVBoxLayout(alertRoom);
  alertLayout->setContentsMargins(0, 0, 0, 0);
  droppedAlert_ = new QLabel(alertRoom);
  droppedAlert_->setObjectName(QStringLiteral("droppedAlert"));
  droppedAlert_->setStyleSheet(kAlertStyle);
  droppedAlert_->setWordWrap(true);
  QSizePolicy keepRoom = droppedAlert_->sizePolicy();
  keepRoom.setRetainSizeWhenHidden(true);
  droppedAlert_->setSizePolicy(keepRoom);
  droppedAlert_->setText(droppedAlertText(kRoomForDrops, 0));  // the room for a long count
  droppedAlert_->hide();
  alertLayout->addWidget(droppedAlert_);
  layout->addRow(alertRoom);
  return group;
}

void AcquisitionPanel::setAutoOverflowPolicy() {
  overflow_->setCurrentIndex(overflow_->findData(kAutoPolicy));
  controller_.setAutoOverflowPolicy();  // also when the box showed it already
}

void AcquisitionPanel::setOverflowPolicy(pipeline::OverflowPolicy policy) {
  overflow_->setCurrentIndex(overflow_->findData(static_cast<int>(policy)));
}

void AcquisitionPanel::chooseRecording() {
  const QString path = askOpenFile(this, file_kinds::kRecordings, tr("Open a recording"),
                                   tr("Recordings (*.h5 *.hdf5 *.mat);;All files (*)"));
  if (!path.isEmpty()) {
    emit openRequested(path);
  }
}

void AcquisitionPanel::chooseLabSource() {
  SourceDialog dialog(this);
  if (dialog.exec() == QDialog::Accepted) {
    emit openRequested(dialog.spec());
  }
}

void AcquisitionPanel::onSourceOpened(const QString& description) {
  sourceLabel_->setText(description);
  sourceLabel_->setToolTip(description);
  const double rate = controller_.sourceFrameRateHz();
  // A live stream's sender paces it: there is no rate of its own to show.
  frameRate_->setSpecialValueText(rate > 0 ? tr("source rate (%1 Hz)").arg(rate, 0, 'g', 4)
                                           : tr("as frames arrive"));
}

void AcquisitionPanel::onRunningChanged(bool running) {
  start_->setEnabled(!running && controller_.hasSource());
  stop_->setEnabled(running);
  freeze_->setEnabled(running);
  if (running) {
    // The engine counts drops per run.
    droppedSeen_ = 0;
    droppedCount_->setText(QStringLiteral("0"));
    notImagedCount_->setText(QStringLiteral("0"));
    droppedAlert_->hide();
  }
}

QString AcquisitionPanel::droppedAlertText(std::uint64_t dropped, std::uint64_t lost) {
  const auto count = [](std::uint64_t n) {
    return static_cast<int>(std::min<std::uint64_t>(n, std::numeric_limits<int>::max()));
  };
  if (lost == 0) {
    return tr("⚠ %n frame(s) dropped: processing cannot keep up with the frame rate", nullptr,
              count(dropped));
  }
  const QString gaps =
      tr("⚠ %n frame(s) lost before they reached Cineflow (gaps in the source's sequence, or "
         "frames that arrived incomplete)",
         nullptr, count(lost));
  return dropped == 0
             ? gaps
             : gaps + "\n" +
                   tr("⚠ %n more dropped: processing cannot keep up", nullptr, count(dropped));
}

void AcquisitionPanel::onStatsUpdated(const pipeline::EngineStats& stats) {
  const std::uint64_t missing = stats.dropped + stats.lost;
  droppedCount_->setText(stats.lost == 0
                             ? QString::number(stats.dropped)
                             : tr("%1 (%2 lost before Cineflow)").arg(missing).arg(stats.lost));
  notImagedCount_->setText(QString::number(stats.skipped));
  const QString status = QString::fromStdString(stats.sourceStatus);
  if (status != liveStatus_->text()) {
    liveStatus_->setText(status);
  }
  liveStatus_->setVisible(!status.isEmpty());
  damagedCount_->setText(stats.damaged == 0
                             ? QStringLiteral("0")
                             : tr("%1 damaged (hover for the last)").arg(stats.damaged));
  damagedCount_->setStyleSheet(stats.damaged == 0 ? QString() : kAlertStyle);
  damagedCount_->setToolTip(QString::fromStdString(stats.lastDamage));
  if (missing <= droppedSeen_) {
    // The alert stays while frames keep dropping and clears once they have stopped for a while
    // (the count above keeps the total).
    if (droppedAlert_->isVisible() && lastDrop_.elapsed() > kAlertHoldMs) {
      droppedAlert_->hide();
    }
  } else {
    droppedSeen_ = missing;
    lastDrop_.start();
    droppedAlert_->setText(droppedAlertText(stats.dropped, stats.lost));
    droppedAlert_->show();
  }
}

ModalityPanels* AcquisitionPanel::panelsOf(const QString& modality) const {
  for (const auto& entry : modalityPanels_) {
    if (entry.modality->name() == modality) {
      return entry.panels.get();
    }
  }
  return nullptr;
}

int AcquisitionPanel::modalityPanelsWidth() const {
  int width = 0;
  for (const auto& entry : modalityPanels_) {
    for (const QWidget* widget : entry.panels->widgets()) {
      width = std::max(width, widget->minimumSizeHint().width());
    }
  }
  return width;
}

void AcquisitionPanel::connectViews(ImageView& view, CineloopPanel& cineloop) {
  for (const auto& entry : modalityPanels_) {
    entry.panels->connectViews(view, cineloop);
  }
}

}  // namespace cineflow::ui

#include "main_window.hpp"

#include <QAction>
#include <QKeySequence>
#include <QLabel>
#include <QMessageBox>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>

#include "bmode_view.hpp"
#include "display_controls.hpp"
#include "display_geometry.hpp"
#include "engine_controller.hpp"

namespace cineflow::ui {
namespace {

// Around the first frame's suggested gain: far enough below to lift weak echoes, above to dim
// saturated ones.
constexpr double kGainSpanBelowDb = 80.0;
constexpr double kGainSpanAboveDb = 40.0;
constexpr qint64 kDisplayRateWindowMs = 1000;

}  // namespace

MainWindow::MainWindow(compute::BackendRequest backend, QWidget* parent)
    : QMainWindow(parent),
      controller_(std::make_unique<EngineController>(backend)),
      view_(new BmodeView(this)),
      displayControls_(new DisplayControls(this)) {
  qRegisterMetaType<std::shared_ptr<const Frame>>();
  qRegisterMetaType<pipeline::EngineStats>();

  setWindowTitle(QStringLiteral("Cineflow"));
  setCentralWidget(view_);
  createToolBar();
  createStatusBar();
  resize(1280, 860);

  connect(controller_.get(), &EngineController::frameReady, this, &MainWindow::onFrameReady);
  connect(controller_.get(), &EngineController::statsUpdated, this, &MainWindow::onStatsUpdated);
  connect(controller_.get(), &EngineController::runningChanged, this,
          &MainWindow::onRunningChanged);
  connect(controller_.get(), &EngineController::openProgress, this, &MainWindow::onOpenProgress);
  connect(controller_.get(), &EngineController::errorOccurred, this, &MainWindow::onError);
  connect(controller_.get(), &EngineController::sourceOpened, this, [this](const QString& what) {
    runAction_->setEnabled(true);
    showMessage(tr("Source: %1").arg(what), false);
  });
  connect(view_, &BmodeView::renderingFailed, this,
          [this](const QString& reason) { onError(tr("Cannot display images: %1").arg(reason)); });
  connect(displayControls_, &DisplayControls::gainChanged, view_, &BmodeView::setGainDb);
  connect(displayControls_, &DisplayControls::dynamicRangeChanged, view_,
          &BmodeView::setDynamicRangeDb);
  view_->setGainDb(displayControls_->gainDb());
  view_->setDynamicRangeDb(displayControls_->dynamicRangeDb());

  if (!controller_->backendNotice().isEmpty()) {
    showMessage(controller_->backendNotice(), false);
  }
}

MainWindow::~MainWindow() {
  // The engine stops (and joins its threads) while every widget its signals reach still exists.
  controller_.reset();
}

void MainWindow::createToolBar() {
  QToolBar* toolBar = addToolBar(tr("Acquisition"));
  toolBar->setObjectName(QStringLiteral("acquisitionToolBar"));
  toolBar->setMovable(false);
  toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);

  runAction_ = toolBar->addAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("Start"));
  runAction_->setObjectName(QStringLiteral("runAction"));
  runAction_->setShortcut(QKeySequence(Qt::Key_Space));
  runAction_->setToolTip(tr("Start or stop acquisition (Space)"));
  runAction_->setEnabled(false);  // until a source is open
  connect(runAction_, &QAction::triggered, this,
          [this] { controller_->setRunning(!controller_->isRunning()); });

  toolBar->addSeparator();
  toolBar->addWidget(displayControls_);
}

void MainWindow::createStatusBar() {
  messageLabel_ = new QLabel(this);
  messageLabel_->setObjectName(QStringLiteral("messageLabel"));
  backendLabel_ = new QLabel(controller_->backendDescription(), this);
  backendLabel_->setObjectName(QStringLiteral("backendLabel"));
  statsLabel_ = new QLabel(tr("stopped"), this);
  statsLabel_->setObjectName(QStringLiteral("statsLabel"));
  statusBar()->addWidget(messageLabel_, 1);
  statusBar()->addPermanentWidget(backendLabel_);
  statusBar()->addPermanentWidget(statsLabel_);
}

void MainWindow::openSource(const QString& spec, bool autoStart) {
  autoGainPending_ = true;
  runAction_->setEnabled(false);
  showMessage(tr("Opening %1…").arg(spec), false);
  controller_->open(spec, autoStart);
}

void MainWindow::onFrameReady(const std::shared_ptr<const Frame>& frame) {
  if (autoGainPending_) {
    autoGainPending_ = false;
    const double gain = suggestGainDb(frame->pixels);
    displayControls_->setGainRange(gain - kGainSpanBelowDb, gain + kGainSpanAboveDb);
    displayControls_->setGainDb(gain);
  }
  view_->setFrame(frame);
}

void MainWindow::onStatsUpdated(const pipeline::EngineStats& stats) {
  const std::uint64_t displayed = view_->framesDisplayed();
  // Counted over a second or more: a few frames per statistics update would quantise the rate.
  if (!displayClock_.isValid()) {
    displayClock_.start();
    displayedAtLastStats_ = displayed;
  } else if (displayClock_.elapsed() >= kDisplayRateWindowMs) {
    displayFps_ = 1000.0 * static_cast<double>(displayed - displayedAtLastStats_) /
                  static_cast<double>(displayClock_.restart());
    displayedAtLastStats_ = displayed;
  }

  const auto& frame = view_->displayedFrame();
  statsLabel_->setText(tr("%1 frames/s processed · %2 displayed · dropped %3 · seq %4")
                           .arg(stats.processingFps, 0, 'f', 1)
                           .arg(displayFps_, 0, 'f', 1)
                           .arg(stats.dropped)
                           .arg(frame ? QString::number(frame->header.sequence) : tr("–")));
}

void MainWindow::onRunningChanged(bool running) {
  runAction_->setText(running ? tr("Stop") : tr("Start"));
  runAction_->setIcon(style()->standardIcon(running ? QStyle::SP_MediaStop : QStyle::SP_MediaPlay));
  if (running) {
    lastError_.clear();
    displayClock_.invalidate();
    displayFps_ = 0.0;
    showMessage(tr("Acquiring: %1").arg(controller_->sourceDescription()), false);
  } else if (lastError_.isEmpty()) {
    showMessage(tr("Stopped: %1").arg(controller_->sourceDescription()), false);
  }
}

void MainWindow::onOpenProgress(double fraction, const QString& what) {
  showMessage(tr("%1 (%2%)").arg(what).arg(qRound(100.0 * fraction)), false);
}

void MainWindow::onError(const QString& message) {
  lastError_ = message;
  showMessage(message, true);
  emit errorShown(message);
  if (interactiveErrors_) {
    // Non-modal: the live image and the controls stay usable while the message is read.
    auto* box =
        new QMessageBox(QMessageBox::Warning, tr("Cineflow"), message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setModal(false);
    box->show();
  }
}

void MainWindow::showMessage(const QString& text, bool isError) {
  messageLabel_->setText(text);
  messageLabel_->setStyleSheet(isError ? QStringLiteral("color: #ff7070;") : QString());
}

}  // namespace cineflow::ui

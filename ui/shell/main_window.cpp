#include "shell/main_window.hpp"

#include <algorithm>
#include <utility>

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLayout>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QShowEvent>
#include <QStatusBar>
#include <QStringList>
#include <QTimer>
#include <QToolBar>

#include "acquisition/acquisition_panel.hpp"
#include "acquisition/igtl_panel.hpp"
#include "acquisition/raw_recording.hpp"
#include "bridge/engine_controller.hpp"
#include "cineloop/cineloop_panel.hpp"
#include "common/app_settings.hpp"
#include "common/colour_maps.hpp"
#include "common/display_geometry.hpp"
#include "common/media_icons.hpp"
#include "common/wheel_guard.hpp"
#include "modality/modality_ui.hpp"
#include "profiler/profiler_feed.hpp"
#include "profiler/status_indicators.hpp"
#include "profiler/trace_capture.hpp"
#include "registry/source_factory.hpp"
#include "shell/notice_banner.hpp"
#include "shell/transport_keys.hpp"
#include "view2d/depth_gain_controls.hpp"
#include "view2d/display_controls.hpp"
#include "view2d/image_view.hpp"
#include "view3d/volume_3d_panel.hpp"
#include "view3d/volume_view.hpp"
#include "volumes/volume_controller.hpp"

namespace cineflow::ui {
namespace {

// Around the first frame's suggested gain: far enough below to lift weak echoes, above to dim
// saturated ones.
constexpr double kGainSpanBelowDb = 80.0;
constexpr double kGainSpanAboveDb = 40.0;

}  // namespace

MainWindow::MainWindow(compute::BackendRequest backend, QWidget* parent)
    : QMainWindow(parent),
      controller_(std::make_unique<EngineController>(backend)),
      view_(new ImageView(this)),
      displayControls_(new DisplayControls(this)) {
  qRegisterMetaType<std::shared_ptr<const Image>>();
  qRegisterMetaType<pipeline::EngineStats>();

  setWindowTitle(QStringLiteral("Cineflow"));
  setCentralWidget(view_);
  // Most of the screen it opens on (the image is what the operator came for), never more than
  // the screen: the status bar and the docks' lower controls stay on it.
  const QSize available = screen()->availableGeometry().size();
  resize(QSize(1280, 800).expandedTo(available * 0.9).boundedTo(available));
  createActions();
  createToolBar();
  createDocks();
  createVolumeDocks();
  createMeasurementDock();
  createDepthGainDock();
  createStudy();
  createPacs();
  createMenus();
  createStatusBar();
  createRecording();
  connectController();
  updateAcquisitionState();
  // The transport keys work wherever the focus was left (shell/transport_keys.hpp), and a click on
  // a panel's button does not take the focus (Tab still reaches it): clicking Stop must not leave
  // the focus in the box that follows it.
  transportKeys_ = new TransportKeys(this);
  qApp->installEventFilter(transportKeys_);
  for (QAbstractButton* button : findChildren<QAbstractButton*>()) {
    if ((button->focusPolicy() & Qt::ClickFocus) != 0) {
      button->setFocusPolicy(Qt::TabFocus);
    }
  }
  defaultLayout_ = saveState();  // View > Reset layout returns here
  restoreSettings();
  // The view chooses its display path once its GL context exists; frames then stay in the
  // cineloop when it can upload them device-to-texture.
  connect(view_, &ImageView::displayPathChanged, controller_.get(),
          [this](bool deviceUpload) { controller_->setPixelsInCineloop(deviceUpload); });
  view_->setLiveSource(&controller_->engine());
  // Why CUDA is not used (backendNotice) stays in the status bar's backend field.
}

MainWindow::~MainWindow() {
  delete traceCapture_;  // detaches its recorder from the engine, waits for a write
  traceCapture_ = nullptr;
  delete recording_;  // detaches from the engine, closes the recording
  recording_ = nullptr;
  // The cineloop panel reads the engine: it goes first. Then the engine stops (and joins its
  // threads) while every widget its signals reach still exists.
  delete cineloopDock_;
  cineloopDock_ = nullptr;
  cineloopPanel_ = nullptr;
  view_->setLiveSource(nullptr);      // the view holds CUDA resources of the controller's device
  volume3d_->view().releaseDevice();  // so does the 3-D view, allocated through its backend
  controller_->blockSignals(true);    // half the widgets its signals reach are gone
  controller_->stop();
  volumes_.reset();  // waits for a save in progress; its buffers live on the controller's device
  controller_.reset();
}

void MainWindow::createToolBar() {
  QToolBar* toolBar = addToolBar(tr("Display"));
  toolBar->setObjectName(QStringLiteral("displayToolBar"));
  toolBar->setMovable(false);
  toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  toolBar->addAction(runAction_);
  toolBar->addAction(freezeAction_);
  toolBar->addAction(recordAction_);
  toolBar->addAction(profilerAction_);
  toolBar->addSeparator();
  toolBar->addWidget(displayControls_);
  toolBar->addSeparator();
  createPresetPicker(*toolBar);

  followDisplayControls(*view_);
}

void MainWindow::followDisplayControls(ImageView& view, bool ownLevel) {
  if (ownLevel) {
    // The gain slider moves the view's own level by as much as it moves the live one's.
    view.setOwnLevel(true);
    connect(displayControls_, &DisplayControls::gainChanged, &view,
            [this, &view] { view.setRelativeGainDb(displayControls_->relativeGainDb()); });
    view.setRelativeGainDb(displayControls_->relativeGainDb());
  } else {
    connect(displayControls_, &DisplayControls::gainChanged, &view, &ImageView::setGainDb);
    view.setGainDb(displayControls_->gainDb());
  }
  connect(displayControls_, &DisplayControls::dynamicRangeChanged, &view,
          &ImageView::setDynamicRangeDb);
  connect(displayControls_, &DisplayControls::colourMapChanged, &view, &ImageView::setColourMap);
  view.setDynamicRangeDb(displayControls_->dynamicRangeDb());
  view.setColourMap(displayControls_->colourMap());
}

void MainWindow::createDocks() {
  acquisitionPanel_ = new AcquisitionPanel(*controller_, this);
  acquisitionDock_ = new QDockWidget(tr("Acquisition"), this);
  acquisitionDock_->setObjectName(QStringLiteral("acquisitionDock"));
  // Scrolls rather than forcing the window taller than a small screen.
  auto* acquisitionScroll = new QScrollArea(acquisitionDock_);
  acquisitionScroll->setWidget(acquisitionPanel_);
  guardWheelInside(*acquisitionPanel_);  // the wheel scrolls the dock, not the field under it
  acquisitionScroll->setWidgetResizable(true);
  acquisitionScroll->setFrameShape(QFrame::NoFrame);
  // Wide enough for any modality's panels (only the open source's are shown), so that opening
  // another modality's source never clips the dock.
  const int modalityPanels = acquisitionPanel_->modalityPanelsWidth();
  const QMargins margins = acquisitionPanel_->layout()->contentsMargins();
  acquisitionScroll->setMinimumWidth(std::max(acquisitionPanel_->minimumSizeHint().width(),
                                              modalityPanels + margins.left() + margins.right()) +
                                     acquisitionScroll->verticalScrollBar()->sizeHint().width());
  acquisitionScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  acquisitionDock_->setWidget(acquisitionScroll);
  addDockWidget(Qt::LeftDockWidgetArea, acquisitionDock_);
  // A modality may answer a request with a dialog of its own (a MATLAB file's mapping).
  connect(acquisitionPanel_, &AcquisitionPanel::openRequested, this, [this](const QString& spec) {
    for (const ModalityUi* modality : modalityUis()) {
      if (modality->takeOpenRequest(spec, *controller_, this)) {
        return;
      }
    }
    openSource(spec);
  });
  connect(acquisitionPanel_, &AcquisitionPanel::freezeRequested, this, &MainWindow::freeze);
  connect(&acquisitionPanel_->igtlPanel(), &IgtlPanel::messageReady, this,
          &MainWindow::showMessage);

  cineloopPanel_ = new CineloopPanel(controller_->engine(), this);
  cineloopDock_ = new QDockWidget(tr("Cineloop"), this);
  cineloopDock_->setObjectName(QStringLiteral("cineloopDock"));
  cineloopDock_->setWidget(cineloopPanel_);
  addDockWidget(Qt::BottomDockWidgetArea, cineloopDock_);
  connect(cineloopPanel_, &CineloopPanel::frameSelected, view_, &ImageView::setFrame);
  connect(cineloopPanel_, &CineloopPanel::messageReady, this, &MainWindow::showMessage);
  // Exports look like the display.
  connect(displayControls_, &DisplayControls::gainChanged, cineloopPanel_,
          &CineloopPanel::setGainDb);
  connect(displayControls_, &DisplayControls::dynamicRangeChanged, cineloopPanel_,
          &CineloopPanel::setDynamicRangeDb);
  connect(displayControls_, &DisplayControls::colourMapChanged, cineloopPanel_,
          &CineloopPanel::setColourMap);
  cineloopPanel_->setGainDb(displayControls_->gainDb());
  // The OpenIGTLink server's 8-bit images look like the display too.
  const auto igtlFollows = [this] {
    controller_->setIgtlMapping({displayControls_->gainDb(), displayControls_->dynamicRangeDb()});
  };
  connect(displayControls_, &DisplayControls::gainChanged, this, igtlFollows);
  connect(displayControls_, &DisplayControls::dynamicRangeChanged, this, igtlFollows);
  igtlFollows();
  cineloopPanel_->setDynamicRangeDb(displayControls_->dynamicRangeDb());
  cineloopPanel_->setColourMap(displayControls_->colourMap());
  cineloopPanel_->setLive(controller_->isRunning());

  // What the modalities' panels set that the views show (Doppler's flow look and colour box).
  acquisitionPanel_->connectViews(*view_, *cineloopPanel_);
}

void MainWindow::createStatusBar() {
  messageLabel_ = new QLabel(this);
  messageLabel_->setObjectName(QStringLiteral("messageLabel"));
  notice_ = new NoticeBanner(view_);
  statusBar()->addWidget(messageLabel_, 1);
  acquisitionState_ = new QLabel(this);
  acquisitionState_->setObjectName(QStringLiteral("acquisitionState"));
  acquisitionState_->setToolTip(
      tr("Live: acquiring. Frozen: stopped by Freeze, reviewing the cineloop (F goes live "
         "again). Stopped: stopped by Stop."));
  statusBar()->addPermanentWidget(acquisitionState_);
  statusIndicators_ = new StatusIndicators(*statusBar(), *controller_, *view_);
  profilerFeed_ = new ProfilerFeed(*controller_, *statusIndicators_, *view_,
                                   {&view_->displayProbe(), &volumes_->saveProbe()}, this);
  traceCapture_ =
      new TraceCapture(*controller_, {&view_->displayProbe(), &volumes_->saveProbe()}, this);
  connect(traceCapture_, &TraceCapture::messageReady, this, &MainWindow::showMessage);
  connect(traceCapture_, &TraceCapture::finished, this,
          [this] { recordTraceAction_->setEnabled(true); });
  connect(profilerAction_, &QAction::toggled, profilerFeed_, &ProfilerFeed::setEnabled);
}

void MainWindow::connectController() {
  connect(controller_.get(), &EngineController::frameReady, this, &MainWindow::onFrameReady);
  connect(controller_.get(), &EngineController::runningChanged, this,
          &MainWindow::onRunningChanged);
  connect(controller_.get(), &EngineController::openProgress, this, &MainWindow::onOpenProgress);
  connect(controller_.get(), &EngineController::errorOccurred, this, &MainWindow::onError);
  connect(controller_.get(), &EngineController::sourceOpened, this, [this](const QString& what) {
    frozen_ = false;  // nothing of the new source to review yet
    // The image has the keyboard (a panel that changed with the source may have handed the focus
    // to one of its boxes), unless the operator is typing into a field.
    if (!transportKeys_->editing(QApplication::focusWidget())) {
      view_->setFocus(Qt::OtherFocusReason);
    }
    // From the new source's first frame: frames of the previous source still arrive while this
    // one opens, and their level is not this source's. The same source opened again to follow
    // its new picture keeps the operator's display.
    const QString followed = controller_->followedChange();
    autoGainPending_ = followed.isEmpty();
    updateAcquisitionState();
    showVolumeDocksFor(controller_->source());
    cineloopPanel_->refresh();
    cineloopPanel_->setRecording(what);
    QStringList note;
    if (!followed.isEmpty()) {
      note << tr("Opened again to follow its new picture (%1)").arg(followed);
    }
    if (recording_ != nullptr) {
      note << recording_->takeEndNote();  // a recording holds one source's frames
    }
    note.removeAll(QString());
    sourceNote_ = note.join(QStringLiteral(". "));
    if (!sourceNote_.isEmpty()) {  // it happened by itself: said where it cannot be missed
      notice_->showNotice(sourceNote_ + QLatin1Char('.'));
    }
    showMessage(
        tr("Source: %1").arg(what) + (sourceNote_.isEmpty() ? QString() : ". " + sourceNote_),
        false);
  });
  connect(view_, &ImageView::renderingFailed, this,
          [this](const QString& reason) { onError(tr("Cannot display images: %1").arg(reason)); });
}

void MainWindow::restoreSettings() {
  const auto settings = openAppSettings();
  restoreGeometry(settings->value(settings_keys::kWindowGeometry).toByteArray());
  restoreState(settings->value(settings_keys::kWindowState).toByteArray());
  // Through the panel's controls, so that what is shown is what the controller uses.
  acquisitionPanel_->frameRateBox().setValue(
      settings->value(settings_keys::kFrameRateHz, 0.0).toDouble());
  // "auto" (or nothing saved): the policy follows the source (live: stay live; replay: every
  // frame); otherwise what the operator chose.
  const QString policy = settings->value(settings_keys::kOverflowPolicy).toString();
  try {
    if (policy.isEmpty() || policy == QStringLiteral("auto")) {
      acquisitionPanel_->setAutoOverflowPolicy();
    } else {
      acquisitionPanel_->setOverflowPolicy(pipeline::parseOverflowPolicy(policy.toStdString()));
    }
  } catch (const std::exception&) {
    acquisitionPanel_->setAutoOverflowPolicy();  // a value of another version: the default
  }
  displayControls_->setDynamicRangeDb(
      settings->value(settings_keys::kDynamicRangeDb, displayControls_->dynamicRangeDb())
          .toDouble());
  if (const auto gain =
          DepthGain::fromText(settings->value(settings_keys::kDepthGain).toString())) {
    depthGainControls_->setDepthGain(*gain);
  }
  const int colourMap = settings->value(settings_keys::kColourMap, 0).toInt();
  if (colourMap >= static_cast<int>(ColourMap::Grey) &&
      colourMap <= static_cast<int>(ColourMap::Viridis)) {
    displayControls_->setColourMap(static_cast<ColourMap>(colourMap));
  }
}

void MainWindow::saveSettings() const {
  const auto settings = openAppSettings();
  settings->setValue(settings_keys::kWindowGeometry, saveGeometry());
  settings->setValue(settings_keys::kWindowState, saveState());
  settings->setValue(settings_keys::kFrameRateHz, controller_->config().frameRateHz);
  settings->setValue(settings_keys::kOverflowPolicy,
                     controller_->overflowAuto()
                         ? QStringLiteral("auto")
                         : QString::fromLatin1(pipeline::toString(controller_->config().overflow)));
  settings->setValue(settings_keys::kDynamicRangeDb, displayControls_->dynamicRangeDb());
  settings->setValue(settings_keys::kColourMap, static_cast<int>(displayControls_->colourMap()));
  settings->setValue(settings_keys::kDepthGain, depthGainControls_->depthGain().toText());
  settings->sync();
}

void MainWindow::showEvent(QShowEvent* event) {
  QMainWindow::showEvent(event);
  if (!layoutFitted_) {
    layoutFitted_ = true;
    QTimer::singleShot(0, this, &MainWindow::fitSavedLayout);  // once the layout has run
  }
}

void MainWindow::fitSavedLayout() {
  const QRect available = screen()->availableGeometry();
  if (width() > available.width() || height() > available.height()) {
    resize(size().boundedTo(available.size()));
    move(available.topLeft());
  }
  if (view_->width() < width() / 3 || view_->height() < height() / 3) {
    restoreState(defaultLayout_);
    showVolumeDocksFor(controller_->source());
    showMessage(tr("The saved layout left the image too small on this screen: the panels are "
                   "back in their default places (View > Reset layout)"),
                false);
  }
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!confirmUnsavedVolumes()) {
    event->ignore();
    return;
  }
  saveSettings();
  QMainWindow::closeEvent(event);
}

void MainWindow::openSource(const QString& spec, bool autoStart) {
  showMessage(tr("Opening %1…").arg(spec), false);
  controller_->open(spec, autoStart);
}

void MainWindow::freeze() {
  if (frozen_) {
    controller_->start();  // runningChanged(true) clears frozen_
    return;
  }
  if (!controller_->isRunning()) {
    return;
  }
  frozen_ = true;
  controller_->stop();  // runningChanged(false) puts the cineloop panel in review mode
  updateAcquisitionState();
  cineloopDock_->show();
  cineloopDock_->raise();
  showMessage(tr("Frozen: reviewing the cineloop (Left / Right step, P plays)"), false);
}

void MainWindow::onFrameReady(const std::shared_ptr<const Image>& frame) {
  if (autoGainPending_) {
    autoGainPending_ = false;
    std::vector<float> copied;
    if (frame->pixelsInCineloop) {
      acquire::FrameHeader header;
      process::ImageGeometry geometry;
      controller_->engine().cineloop().copyImage(frame->header.sequence, copied, header, geometry);
    }
    const double gain = suggestGainDb(
        intensityLayer(frame->pixelsInCineloop ? copied : frame->pixels, frame->geometry));
    displayControls_->setSuggestedGain(gain, kGainSpanBelowDb, kGainSpanAboveDb);
  }
  if (frozen_) {
    return;  // delivered after Freeze stopped the engine: the review shows the cineloop's choice
  }
  view_->setFrame(frame);
}

void MainWindow::updateAcquisitionState() {
  const bool running = controller_->isRunning();
  frozen_ = frozen_ && !running;
  runAction_->setEnabled(controller_->hasSource());
  recordAction_->setEnabled(controller_->hasSource());
  runAction_->setText(running ? tr("Stop") : tr("Start"));
  runAction_->setIcon(mediaIcon(running ? MediaIcon::Stop : MediaIcon::Play));
  freezeAction_->setEnabled(running || frozen_);
  freezeAction_->setChecked(frozen_);
  view_->setFrozen(frozen_);
  acquisitionState_->setText(running ? tr("Live") : frozen_ ? tr("Frozen") : tr("Stopped"));
  acquisitionState_->setVisible(controller_->hasSource());
}

void MainWindow::onRunningChanged(bool running) {
  updateAcquisitionState();
  cineloopPanel_->setLive(running);
  if (running) {
    lastError_.clear();
    const QString note = std::exchange(sourceNote_, QString());
    showMessage(tr("Acquiring: %1").arg(controller_->sourceDescription()) +
                    (note.isEmpty() ? QString() : ". " + note),
                false);
  } else if (lastError_.isEmpty()) {
    showMessage(tr("Stopped: %1").arg(controller_->sourceDescription()), false);
  }
}

void MainWindow::onOpenProgress(double fraction, const QString& what) {
  showMessage(tr("%1 (%2%)").arg(what).arg(qRound(100.0 * fraction)), false);
}

void MainWindow::onError(const QString& message) {
  updateAcquisitionState();  // a failed open leaves the engine as it was
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
  messageLabel_->setToolTip(text);  // the whole message where a narrow window cuts it off
  messageLabel_->setStyleSheet(isError ? QStringLiteral("color: #ff7070;") : QString());
}

void MainWindow::showPassingMessage(const QString& text) {
  showMessage(text, false);
  QTimer::singleShot(kPassingMessageMs, messageLabel_, [this, text] {
    if (messageLabel_->text() == text) {
      messageLabel_->clear();
      messageLabel_->setToolTip(QString());
    }
  });
}

}  // namespace cineflow::ui

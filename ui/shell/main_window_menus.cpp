// MainWindow's actions and menus (File, Acquisition, View, Help), kept apart from the window's
// layout and its reactions to the engine.

#include <memory>
#include <string>

#include <QAction>
#include <QDockWidget>
#include <QInputDialog>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>

#include "acquisition/acquisition_panel.hpp"
#include "bridge/engine_controller.hpp"
#include "cineloop/cineloop_panel.hpp"
#include "common/file_dialogs.hpp"
#include "common/media_icons.hpp"
#include "modality/modality_ui.hpp"
#include "profiler/trace_capture.hpp"
#include "shell/about_dialog.hpp"
#include "shell/main_window.hpp"
#include "view2d/image_view.hpp"
#include "volumes/volume_controller.hpp"

namespace cineflow::ui {

void MainWindow::createActions() {
  openFileAction_ = new QAction(tr("&Open recording…"), this);
  openFileAction_->setObjectName(QStringLiteral("openFileAction"));
  openFileAction_->setShortcut(QKeySequence::Open);
  connect(openFileAction_, &QAction::triggered, this,
          [this] { acquisitionPanel_->chooseRecording(); });

  labSourceAction_ = new QAction(tr("&Lab source (plugin or network stream)…"), this);
  labSourceAction_->setObjectName(QStringLiteral("labSourceAction"));
  connect(labSourceAction_, &QAction::triggered, this,
          [this] { acquisitionPanel_->chooseLabSource(); });

  openVolumeAction_ = new QAction(tr("Open saved &volume…"), this);
  openVolumeAction_->setObjectName(QStringLiteral("openVolumeAction"));
  openVolumeAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
  connect(openVolumeAction_, &QAction::triggered, this, [this] {
    const QString path = askOpenFile(this, file_kinds::kVolumes, tr("Open a saved volume"),
                                     tr("HDF5 volume (*.h5 *.hdf5)"));
    if (!path.isEmpty()) {
      volumes_->openFile(path);  // read on the I/O thread; the panel selects it when it is in
      volumeDock_->show();
      volumeDock_->raise();
    }
  });

  quitAction_ = new QAction(tr("&Quit"), this);
  quitAction_->setObjectName(QStringLiteral("quitAction"));
  quitAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
  quitAction_->setMenuRole(QAction::QuitRole);
  connect(quitAction_, &QAction::triggered, this, &QWidget::close);

  runAction_ = new QAction(mediaIcon(MediaIcon::Play), tr("Start"), this);
  runAction_->setObjectName(QStringLiteral("runAction"));
  runAction_->setShortcut(QKeySequence(Qt::Key_Space));
  runAction_->setToolTip(tr("Start or stop acquisition (Space)"));
  runAction_->setEnabled(false);  // until a source is open
  connect(runAction_, &QAction::triggered, this,
          [this] { controller_->setRunning(!controller_->isRunning()); });

  freezeAction_ = new QAction(mediaIcon(MediaIcon::Freeze), tr("Freeze"), this);
  freezeAction_->setObjectName(QStringLiteral("freezeAction"));
  freezeAction_->setShortcut(QKeySequence(Qt::Key_F));
  freezeAction_->setToolTip(tr("Stop acquiring and review the cineloop; again to go live (F)"));
  freezeAction_->setCheckable(true);
  freezeAction_->setEnabled(false);  // while acquiring or frozen
  connect(freezeAction_, &QAction::triggered, this, &MainWindow::freeze);

  recordAction_ = new QAction(mediaIcon(MediaIcon::Record), tr("Record"), this);
  recordAction_->setObjectName(QStringLiteral("recordAction"));
  recordAction_->setShortcut(QKeySequence(Qt::Key_R));
  recordAction_->setToolTip(
      tr("Record every raw frame the source delivers into a new file (R); again to stop"));
  recordAction_->setCheckable(true);
  recordAction_->setEnabled(false);  // until a source is open

  profilerAction_ = new QAction(tr("&Profiler"), this);
  profilerAction_->setObjectName(QStringLiteral("profilerAction"));
  profilerAction_->setShortcut(QKeySequence(Qt::Key_F2));
  profilerAction_->setCheckable(true);
  profilerAction_->setToolTip(tr("Show where every millisecond goes, over the live image (F2)"));

  recordTraceAction_ = new QAction(tr("Record &trace…"), this);
  recordTraceAction_->setObjectName(QStringLiteral("recordTraceAction"));
  recordTraceAction_->setToolTip(
      tr("Record where the time goes for a few seconds, as a trace for Perfetto"));
  connect(recordTraceAction_, &QAction::triggered, this, [this] {
    bool ok = false;
    const int seconds =
        QInputDialog::getInt(this, tr("Record trace"), tr("Seconds to record:"), 5, 1, 600, 1, &ok);
    if (!ok) {
      return;
    }
    const QString path =
        askSaveFile(this, file_kinds::kTraces, tr("Save the trace as"),
                    QStringLiteral("cineflow-trace.json"), tr("Chrome trace JSON (*.json)"));
    if (!path.isEmpty() && traceCapture_->start(seconds, path)) {
      recordTraceAction_->setEnabled(false);
    }
  });

  axialProfileAction_ = new QAction(tr("&Axial profile under the cursor"), this);
  axialProfileAction_->setObjectName(QStringLiteral("axialProfileAction"));
  axialProfileAction_->setCheckable(true);
  axialProfileAction_->setToolTip(
      tr("Plot dB down the depth under the cursor (Shift + drag draws a line profile instead)"));
  connect(axialProfileAction_, &QAction::toggled, view_, &ImageView::setAxialProfile);
  clearProfileAction_ = new QAction(tr("C&lear line profile"), this);
  clearProfileAction_->setObjectName(QStringLiteral("clearProfileAction"));
  connect(clearProfileAction_, &QAction::triggered, this, [this] {
    axialProfileAction_->setChecked(false);
    view_->clearProfileLine();
  });

  fullScreenAction_ = new QAction(tr("&Full screen"), this);
  fullScreenAction_->setObjectName(QStringLiteral("fullScreenAction"));
  fullScreenAction_->setShortcut(QKeySequence(Qt::Key_F11));
  fullScreenAction_->setCheckable(true);
  connect(fullScreenAction_, &QAction::toggled, this,
          [this](bool on) { on ? showFullScreen() : showNormal(); });

  aboutAction_ = new QAction(tr("&About Cineflow"), this);
  aboutAction_->setObjectName(QStringLiteral("aboutAction"));
  aboutAction_->setMenuRole(QAction::AboutRole);
  connect(aboutAction_, &QAction::triggered, this, [this] { showAboutDialog(this, *controller_); });
}

void MainWindow::createMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(studyAction_);
  file->addSeparator();
  file->addAction(openFileAction_);
  for (const ModalityUi* modality : modalityUis()) {
    file->addActions(modality->createImportActions(*controller_, *this));
  }
  file->addAction(openVolumeAction_);
  // Each modality's sources (its simulators), as in the acquisition dock.
  for (const ModalityUi* modality : modalityUis()) {
    for (const SourceButton& source : modality->sourceButtons()) {
      QAction* action = file->addAction(source.label);
      action->setObjectName(
          QString(source.objectName).replace(QStringLiteral("Button"), QStringLiteral("Action")));
      action->setToolTip(source.toolTip);
      connect(action, &QAction::triggered, this, [this, spec = source.spec] { openSource(spec); });
    }
  }
  file->addAction(labSourceAction_);
  file->addSeparator();
  file->addAction(sendToPacsAction_);
  file->addAction(pacsSettingsAction_);
  file->addSeparator();
  file->addAction(quitAction_);

  QMenu* acquisition = menuBar()->addMenu(tr("&Acquisition"));
  acquisition->addAction(runAction_);
  acquisition->addAction(freezeAction_);
  acquisition->addAction(recordAction_);
  QAction* tuneAction = acquisition->addAction(tr("Tune stages"));
  tuneAction->setObjectName(QStringLiteral("tuneAction"));
  tuneAction->setToolTip(
      tr("Time every implementation of the stages that have several (the beamformer) on this "
         "machine, between frames, and run the fastest; the profiler shows which runs"));
  connect(tuneAction, &QAction::triggered, this, [this] {
    if (!controller_->tuningEnabled()) {
      showMessage(tr("Tuning is off (--no-tune): every stage runs its default implementation"),
                  false);
      return;
    }
    controller_->retune();
    showMessage(tr("Tuning: every implementation of the tunable stages is timed between frames; "
                   "the profiler (F2) shows the one chosen"),
                false);
  });
  // A stage whose frames drifted far from its measurement: said once, in an operator's words and
  // for a few seconds (the figures, for whoever wants them, in the message's tooltip and the
  // profiler), with what to do.
  connect(controller_.get(), &EngineController::statsUpdated, this,
          [this, said = std::make_shared<std::string>()](const pipeline::EngineStats& stats) {
            if (!stats.tuneNote.empty() && stats.tuneNote != *said) {
              *said = stats.tuneNote;
              showPassingMessage(
                  tr("Processing is slower than when it was tuned: Acquisition > "
                     "Tune stages picks again"));
              messageLabel_->setToolTip(QString::fromStdString(stats.tuneNote));
            }
          });
  // Cineloop review: the panel's own actions (enabled only while reviewing), with the keys the
  // panel documents. Menu actions are window-wide shortcuts.
  acquisition->addSeparator();
  QAction* stepBack = cineloopPanel_->stepBackAction();
  QAction* stepForward = cineloopPanel_->stepForwardAction();
  QAction* playPause = cineloopPanel_->playPauseAction();
  stepBack->setShortcut(QKeySequence(Qt::Key_Left));
  stepForward->setShortcut(QKeySequence(Qt::Key_Right));
  playPause->setShortcut(QKeySequence(Qt::Key_P));
  acquisition->addAction(stepBack);
  acquisition->addAction(stepForward);
  acquisition->addAction(playPause);
  // The operator's own presets (the toolbar's picker chooses among all).
  acquisition->addSeparator();
  acquisition->addAction(savePresetAction_);
  acquisition->addAction(deletePresetAction_);

  QMenu* view = menuBar()->addMenu(tr("&View"));
  view->addAction(fullScreenAction_);
  view->addAction(profilerAction_);
  view->addAction(recordTraceAction_);
  view->addAction(axialProfileAction_);
  view->addAction(clearProfileAction_);
  view->addSeparator();
  view->addAction(acquisitionDock_->toggleViewAction());
  view->addAction(cineloopDock_->toggleViewAction());
  view->addAction(depthGainDock_->toggleViewAction());
  view->addAction(volumeDock_->toggleViewAction());
  view->addAction(liveMipDock_->toggleViewAction());
  view->addAction(volume3dDock_->toggleViewAction());
  view->addAction(measurementsDock_->toggleViewAction());
  view->addSeparator();
  QAction* resetLayout = view->addAction(tr("Reset layout"));
  resetLayout->setObjectName(QStringLiteral("resetLayoutAction"));
  resetLayout->setToolTip(tr("Put the panels back where they were when Cineflow first opened"));
  connect(resetLayout, &QAction::triggered, this, [this] {
    restoreState(defaultLayout_);
    showVolumeDocksFor(controller_->source());
  });

  addMeasureMenu();
  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(aboutAction_);
}

}  // namespace cineflow::ui

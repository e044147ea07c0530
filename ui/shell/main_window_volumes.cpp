// MainWindow's volume docks: the review panel (buffer, review, save, discard) and the live MIPs
// of the newest volume of the running source beside the live B-mode; and the question asked
// before quitting with unsaved volumes.

#include <QDockWidget>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>

#include "acquire/frame_source.hpp"
#include "bridge/engine_controller.hpp"
#include "common/file_dialogs.hpp"
#include "pipeline/engine.hpp"
#include "shell/main_window.hpp"
#include "store/volume_store.hpp"
#include "view2d/display_controls.hpp"
#include "view2d/image_view.hpp"
#include "view3d/volume_3d_panel.hpp"
#include "view3d/volume_view.hpp"
#include "volumes/mip_triptych.hpp"
#include "volumes/volume_controller.hpp"
#include "volumes/volume_review_panel.hpp"

namespace cineflow::ui {

void MainWindow::createVolumeDocks() {
  volumes_ = std::make_unique<VolumeController>(*controller_);
  connect(volumes_.get(), &VolumeController::messageReady, this, &MainWindow::showMessage);
  connect(volumes_.get(), &VolumeController::savingChanged, this, &MainWindow::onSavingChanged);

  volumePanel_ = new VolumeReviewPanel(*volumes_, this);
  for (const auto finished :
       {&VolumeReviewPanel::videoFinished, &VolumeReviewPanel::dicomFinished}) {
    connect(volumePanel_, finished, this,
            [this](bool ok, const QString& message) { showMessage(message, !ok); });
  }
  volumeDock_ = new QDockWidget(tr("Volumes"), this);
  volumeDock_->setObjectName(QStringLiteral("volumeDock"));
  volumeDock_->setWidget(volumePanel_);
  addDockWidget(Qt::RightDockWidgetArea, volumeDock_);

  liveMips_ = new MipTriptych(QStringLiteral("liveMip"), this);
  liveMipDock_ = new QDockWidget(tr("Live MIPs"), this);
  liveMipDock_->setObjectName(QStringLiteral("liveMipDock"));
  liveMipDock_->setWidget(liveMips_);
  addDockWidget(Qt::RightDockWidgetArea, liveMipDock_);
  // One column of tabs beside the image, the live MIPs in front, a fifth of the window.
  tabifyDockWidget(volumeDock_, liveMipDock_);
  liveMipDock_->raise();
  resizeDocks({volumeDock_}, {width() / 5}, Qt::Horizontal);
  connect(volumes_.get(), &VolumeController::latestVolumeChanged, this,
          &MainWindow::refreshLiveMip);
  // The previous source's newest volume is not this source's: nothing until this one makes one.
  connect(controller_.get(), &EngineController::sourceOpened, liveMips_,
          [this] { liveMips_->clear(tr("No volume from this source yet")); });

  // The 3-D view, a tab beside the live MIPs: the newest volume, or the one selected for review.
  volume3d_ = new Volume3dPanel(this);
  volume3dDock_ = new QDockWidget(tr("3-D view"), this);
  volume3dDock_->setObjectName(QStringLiteral("volume3dDock"));
  volume3dDock_->setWidget(volume3d_);
  addDockWidget(Qt::RightDockWidgetArea, volume3dDock_);
  tabifyDockWidget(liveMipDock_, volume3dDock_);
  liveMipDock_->raise();
  connect(volume3d_, &Volume3dPanel::messageReady, this, &MainWindow::showMessage);
  connect(volume3d_, &Volume3dPanel::liveChosen, this, &MainWindow::refreshVolume3d);
  connect(volume3d_, &Volume3dPanel::openSliceRequested, this, &MainWindow::openVolumeSlice);
  connect(volumes_.get(), &VolumeController::latestVolumeChanged, this,
          &MainWindow::refreshVolume3d);
  connect(volume3dDock_, &QDockWidget::visibilityChanged, this, [this](bool visible) {
    if (visible) {
      refreshVolume3d();  // the newest volume, copied only while the view is seen
    } else {
      volume3dRate_->clear();  // no rate for a view nobody sees
    }
  });
  connect(controller_.get(), &EngineController::sourceOpened, volume3d_,
          [this] { volume3d_->setLiveVolume(nullptr); });
  connect(volumePanel_, &VolumeReviewPanel::selectionChanged, this,
          [this](bool selected, quint64 id) {
            volume3d_->setReviewVolume(selected ? volumes_->bufferedVolume(id) : nullptr);
          });
  volume3dRate_ = new QLabel(this);
  volume3dRate_->setObjectName(QStringLiteral("volume3dRate"));
  volume3dRate_->setToolTip(
      tr("How often the 3-D view drew in the last second, and how long "
         "its last picture took"));
  statusBar()->addPermanentWidget(volume3dRate_);
  connect(volume3d_, &Volume3dPanel::framesPerSecondChanged, this, [this](double fps) {
    if (volume3dDock_->visibleRegion().isEmpty() && !volume3dDock_->isFloating()) {
      volume3dRate_->clear();  // a paint as the dock was laid out, not a view anyone sees
      return;
    }
    volume3dRate_->setText(tr("3-D %1 frames/s, %2 ms each")
                               .arg(fps, 0, 'f', fps < 10 ? 1 : 0)
                               .arg(volume3d_->view().lastDrawMs(), 0, 'f', 0));
  });
  // The 3-D view at each volume's own level as the 2-D volume views below (an ultrasound volume
  // stays readable while an OCT source is live), moved by the gain slider as the live image is.
  VolumeView& view3d = volume3d_->view();
  view3d.setOwnLevel(true);
  connect(displayControls_, &DisplayControls::gainChanged, &view3d,
          [this, &view3d] { view3d.setRelativeGainDb(displayControls_->relativeGainDb()); });
  connect(displayControls_, &DisplayControls::dynamicRangeChanged, &view3d,
          [&view3d](double range) { view3d.setDynamicRangeDb(static_cast<float>(range)); });
  connect(displayControls_, &DisplayControls::colourMapChanged, &view3d, &VolumeView::setColourMap);
  view3d.setRelativeGainDb(displayControls_->relativeGainDb());
  view3d.setDynamicRangeDb(static_cast<float>(displayControls_->dynamicRangeDb()));
  view3d.setColourMap(displayControls_->colourMap());

  // The volume views take the live one's dynamic range and colour map, each at its own level
  // (a projection is brighter than a B-scan; a volume may be of another modality than the live
  // source), moved by the gain slider as the live one is.
  for (const auto axis : {MipTriptych::Axis::Y, MipTriptych::Axis::Z, MipTriptych::Axis::X}) {
    followDisplayControls(liveMips_->view(axis), true);
    followDisplayControls(volumePanel_->mips().view(axis), true);
  }
  followDisplayControls(volumePanel_->view(), true);
}

void MainWindow::showVolumeDocksFor(const acquire::FrameSource* source) {
  // A 2-D source makes no volumes: its docks would only take room from the image. Shown again
  // (where the operator left them) for a source that sweeps.
  const bool volumes = source != nullptr && source->framesPerVolume() > 0;
  volumeDock_->setVisible(volumes);
  liveMipDock_->setVisible(volumes);
  volume3dDock_->setVisible(volumes);
}

void MainWindow::refreshVolume3d() {
  if (volume3dDock_->visibleRegion().isEmpty() && !volume3dDock_->isFloating()) {
    return;  // no copy for a view behind another tab
  }
  compute::Backend& backend = controller_->backend();
  if (backend.kind() == compute::BackendKind::Cuda &&
      volume3d_->showing() == Volume3dPanel::Showing::Live) {
    // Device to texture, with the volume held; the host copy only where interop cannot run.
    const process::VolumeLock volume = controller_->engine().lockLatestVolume();
    if (!volume || !volume.done().query()) {
      return;  // a later poll shows it
    }
    if (volume3d_->view().showDeviceVolume(backend, volume.view().volume.data(),
                                           VolumeController::describe(volume.info()))) {
      return;
    }
  }
  if (auto volume = volumes_->latestVolume()) {
    volume3d_->setLiveVolume(std::move(volume));
  }
}

void MainWindow::refreshLiveMip() {
  if (!liveMipDock_->isVisible()) {
    return;  // no copy for a hidden view
  }
  liveMips_->setImages(volumes_->latest());
}

void MainWindow::openVolumeSlice(int slice) {
  if (volume3d_->showing() == Volume3dPanel::Showing::Live) {
    // The live volume is the engine's to reuse: buffer the newest, then review it at that
    // slice (the store numbers what it buffers upwards: the highest id is the one just taken).
    if (!volumes_->bufferLatest()) {
      return;  // the controller said why
    }
    std::optional<std::uint64_t> id;
    for (const store::BufferedSummary& entry : volumes_->volumes()) {
      id = std::max(id.value_or(0), entry.id);
    }
    volumePanel_->refresh();
    if (!id || !volumePanel_->select(*id)) {
      return;
    }
  } else if (!volumePanel_->selectedId()) {
    showMessage(tr("Select a volume in the Volumes dock first"), true);
    return;
  }
  volumePanel_->setSlice(slice);
  volumeDock_->show();
  volumeDock_->raise();
}

bool MainWindow::confirmUnsavedVolumes() {
  const int unsaved = volumes_->unsavedCount();
  if (quitAfterSaving_ || unsaved == 0 || !interactiveErrors_) {
    return !quitAfterSaving_;  // while saving before quitting: the save's end closes the window
  }
  QMessageBox box(QMessageBox::Question, tr("Unsaved volumes"),
                  tr("%n buffered volume(s) are not saved.", nullptr, unsaved),
                  QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
  box.setInformativeText(
      tr("Save all writes them into a folder you choose, then quits; quitting without saving "
         "loses them."));
  box.button(QMessageBox::Save)->setText(tr("Save all, then quit…"));
  box.button(QMessageBox::Discard)->setText(tr("Quit without saving"));
  box.setDefaultButton(QMessageBox::Save);
  const int answer = box.exec();
  if (answer == QMessageBox::Discard) {
    return true;
  }
  if (answer == QMessageBox::Save) {
    const QString folder =
        askFolder(this, file_kinds::kVolumes, tr("Save every volume into, then quit"));
    if (!folder.isEmpty()) {
      saveAllThenQuit(folder);
    }
  }
  return false;
}

void MainWindow::saveAllThenQuit(const QString& folder) {
  const int unsaved = volumes_->unsavedCount();
  if (unsaved == 0) {
    close();
    return;
  }
  quitAfterSaving_ = true;
  showMessage(tr("Saving %n volume(s) into %1, then quitting…", nullptr, unsaved).arg(folder),
              false);
  volumePanel_->saveAll(folder);
}

void MainWindow::onSavingChanged(int pending) {
  if (!quitAfterSaving_ || pending > 0) {
    return;
  }
  quitAfterSaving_ = false;
  const int left = volumes_->unsavedCount();
  if (left > 0) {
    onError(
        tr("Not quitting: %n volume(s) could not be saved (the reason is above); they are "
           "still buffered",
           nullptr, left));
    return;
  }
  close();
}

}  // namespace cineflow::ui

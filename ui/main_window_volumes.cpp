// MainWindow's volume docks: the review panel (buffer, review, save, discard) and the live MIPs
// of the newest volume of the running source beside the live B-mode; and the question asked
// before quitting with unsaved volumes.

#include <QDockWidget>
#include <QMessageBox>

#include "acquire/frame_source.hpp"
#include "bmode_view.hpp"
#include "engine_controller.hpp"
#include "main_window.hpp"
#include "mip_triptych.hpp"
#include "volume_controller.hpp"
#include "volume_review_panel.hpp"

namespace cineflow::ui {

void MainWindow::createVolumeDocks() {
  volumes_ = std::make_unique<VolumeController>(*controller_);
  connect(volumes_.get(), &VolumeController::messageReady, this, &MainWindow::showMessage);

  volumePanel_ = new VolumeReviewPanel(*volumes_, this);
  connect(volumePanel_, &VolumeReviewPanel::videoFinished, this,
          [this](bool ok, const QString& message) { showMessage(message, !ok); });
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

  // The volume views look like the live one.
  for (const auto axis : {MipTriptych::Axis::Y, MipTriptych::Axis::Z, MipTriptych::Axis::X}) {
    followDisplayControls(liveMips_->view(axis));
    followDisplayControls(volumePanel_->mips().view(axis));
  }
  followDisplayControls(volumePanel_->view());
}

void MainWindow::showVolumeDocksFor(const acquire::FrameSource* source) {
  // A 2-D source makes no volumes: its docks would only take room from the image. Shown again
  // (where the operator left them) for a source that sweeps.
  const bool volumes = source != nullptr && source->framesPerVolume() > 0;
  volumeDock_->setVisible(volumes);
  liveMipDock_->setVisible(volumes);
}

void MainWindow::refreshLiveMip() {
  if (!liveMipDock_->isVisible()) {
    return;  // no copy for a hidden view
  }
  liveMips_->setImages(volumes_->latest());
}

bool MainWindow::confirmUnsavedVolumes() {
  const int unsaved = volumes_->unsavedCount();
  if (unsaved == 0 || !interactiveErrors_) {
    return true;
  }
  const auto answer = QMessageBox::question(
      this, tr("Unsaved volumes"),
      tr("%n buffered volume(s) are not saved and will be lost. Quit anyway?", nullptr, unsaved),
      QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Cancel);
  return answer == QMessageBox::Discard;
}

}  // namespace cineflow::ui

// MainWindow's volume docks: the review panel (buffer, review, save, discard) and the live MIP of
// the newest volume beside the live B-mode; and the question asked before quitting with unsaved
// volumes.

#include <QDockWidget>
#include <QMessageBox>

#include "bmode_view.hpp"
#include "engine_controller.hpp"
#include "main_window.hpp"
#include "volume_controller.hpp"
#include "volume_review_panel.hpp"

namespace cineflow::ui {

void MainWindow::createVolumeDocks() {
  volumes_ = std::make_unique<VolumeController>(*controller_);
  connect(volumes_.get(), &VolumeController::messageReady, this, &MainWindow::showMessage);

  volumePanel_ = new VolumeReviewPanel(*volumes_, this);
  volumeDock_ = new QDockWidget(tr("Volumes"), this);
  volumeDock_->setObjectName(QStringLiteral("volumeDock"));
  volumeDock_->setWidget(volumePanel_);
  addDockWidget(Qt::RightDockWidgetArea, volumeDock_);

  liveMipView_ = new BmodeView(this);
  liveMipView_->setObjectName(QStringLiteral("liveMipView"));
  liveMipView_->setMinimumSize(160, 120);
  liveMipDock_ = new QDockWidget(tr("Live MIP (through the slab)"), this);
  liveMipDock_->setObjectName(QStringLiteral("liveMipDock"));
  liveMipDock_->setWidget(liveMipView_);
  addDockWidget(Qt::RightDockWidgetArea, liveMipDock_);
  connect(volumes_.get(), &VolumeController::latestVolumeChanged, this,
          &MainWindow::refreshLiveMip);

  // The volume views look like the live one.
  followDisplayControls(*liveMipView_);
  followDisplayControls(volumePanel_->view());
}

void MainWindow::refreshLiveMip() {
  if (!liveMipDock_->isVisible()) {
    return;  // no copy for a hidden view
  }
  const VolumeImages latest = volumes_->latest();
  if (latest.alongY) {
    liveMipView_->setFrame(latest.alongY);
  }
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

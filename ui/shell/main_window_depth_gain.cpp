// MainWindow's time-gain compensation: the "Depth gain (TGC)" dock with its sliders
// (view2d/depth_gain_controls.hpp), tabified with the acquisition panel, feeding the live view and
// the cineloop (whose exports draw it); kept in the settings and in presets ("tgc_db").

#include <QDockWidget>

#include "cineloop/cineloop_panel.hpp"
#include "shell/main_window.hpp"
#include "view2d/depth_gain_controls.hpp"
#include "view2d/image_view.hpp"

namespace cineflow::ui {

void MainWindow::createDepthGainDock() {
  depthGainControls_ = new DepthGainControls(this);
  depthGainDock_ = new QDockWidget(tr("Depth gain (TGC)"), this);
  depthGainDock_->setObjectName(QStringLiteral("depthGainDock"));
  depthGainDock_->setWidget(depthGainControls_);
  addDockWidget(Qt::LeftDockWidgetArea, depthGainDock_);
  tabifyDockWidget(acquisitionDock_, depthGainDock_);
  acquisitionDock_->raise();
  connect(depthGainControls_, &DepthGainControls::depthGainChanged, view_,
          &ImageView::setDepthGain);
  connect(depthGainControls_, &DepthGainControls::depthGainChanged, cineloopPanel_,
          &CineloopPanel::setDepthGain);
}

}  // namespace cineflow::ui

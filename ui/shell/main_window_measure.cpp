// MainWindow's measurements: one list that every image view measures into (the live view, the
// live MIPs, a reviewed volume's slice and MIPs), the Measurements dock tabbed with the
// acquisition panel, and the Measure menu that shares the dock's tools.

#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>

#include "bridge/engine_controller.hpp"
#include "cineloop/cineloop_panel.hpp"
#include "measure/measurement_list.hpp"
#include "measure/measurements_panel.hpp"
#include "shell/main_window.hpp"
#include "view2d/image_view.hpp"
#include "volumes/mip_triptych.hpp"
#include "volumes/volume_controller.hpp"
#include "volumes/volume_review_panel.hpp"

namespace cineflow::ui {

void MainWindow::createMeasurementDock() {
  measurements_ = new MeasurementList(this);
  measurementsPanel_ = new MeasurementsPanel(*measurements_, this);
  measurementsDock_ = new QDockWidget(tr("Measurements"), this);
  measurementsDock_->setObjectName(QStringLiteral("measurementsDock"));
  measurementsDock_->setWidget(measurementsPanel_);
  addDockWidget(Qt::LeftDockWidgetArea, measurementsDock_);
  // Tabbed with the acquisition panel: the image keeps its width.
  tabifyDockWidget(acquisitionDock_, measurementsDock_);
  acquisitionDock_->raise();
  connect(measurementsPanel_, &MeasurementsPanel::messageReady, this,
          [this](const QString& text) { showMessage(text, false); });

  struct Named {
    ImageView* view;
    QString name;
  };
  std::vector<Named> views{{view_, tr("Live")}, {&volumePanel_->view(), tr("Volume slice")}};
  const std::pair<MipTriptych::Axis, QString> axes[] = {{MipTriptych::Axis::Y, tr("y")},
                                                        {MipTriptych::Axis::Z, tr("z")},
                                                        {MipTriptych::Axis::X, tr("x")}};
  for (const auto& [axis, letter] : axes) {
    views.push_back({&liveMips_->view(axis), tr("Live MIP along %1").arg(letter)});
    // The volume views are renamed for each volume reviewed (VolumeReviewPanel).
    views.push_back({&volumePanel_->mips().view(axis), tr("Volume MIP along %1").arg(letter)});
  }
  cineloopPanel_->setMeasurements(measurements_, tr("Live"));  // exports carry them
  volumePanel_->setMeasurements(measurements_);                // the slice video carries them
  volumes_->setMeasurements(measurements_);                    // and saved volume files
  for (const Named& named : views) {
    named.view->setMeasurements(measurements_, named.name);
    connect(measurementsPanel_, &MeasurementsPanel::toolChanged, named.view,
            &ImageView::setMeasureTool);
  }
  // Acquisition that starts again (unfreeze, a new source) starts a new cineloop: the reviewed
  // frames go, and their measurements stay listed (and in the CSV) under "Earlier cineloop",
  // never drawn on the new frames, whose sequence numbers may repeat theirs.
  connect(controller_.get(), &EngineController::runningChanged, this, [this](bool running) {
    if (!running) {
      return;
    }
    const int moved = measurements_->moveView(tr("Live"), earlierCineloopView());
    if (moved > 0) {
      showMessage(tr("%n measurement(s) of the reviewed frames kept in the list as \"%1\": their "
                     "frames went when acquisition resumed",
                     nullptr, moved)
                      .arg(earlierCineloopView()),
                  false);
    }
  });
  connect(measurementsPanel_, &MeasurementsPanel::measurementActivated, this, [this](int id) {
    const Measurement* m = measurements_->find(id);
    if (m != nullptr && m->view == earlierCineloopView()) {
      showMessage(tr("Measurement %1 was made on a frame of an earlier cineloop, which went when "
                     "acquisition resumed: its values stay in the list and the CSV")
                      .arg(id),
                  false);
      return;
    }
    if (m == nullptr || m->view != tr("Live")) {
      return;  // a volume's measurements show with that volume's views
    }
    if (controller_->isRunning()) {
      freeze();
    }
    if (!cineloopPanel_->selectSequence(m->frame)) {
      showMessage(
          tr("Frame %1 of measurement %2 is no longer in the cineloop").arg(m->frame).arg(id),
          false);
    }
  });
  // Drawing on the live image freezes it, as on a scanner: the measurement stays with its frame.
  // The frame on screen when the drag began stays on screen: the review selects it.
  connect(view_, &ImageView::measuringStarted, this, [this] {
    if (!controller_->isRunning() || view_->displayedFrame() == nullptr) {
      return;
    }
    const std::uint64_t shown = view_->displayedFrame()->header.sequence;
    freeze();
    cineloopPanel_->selectSequence(shown);
  });
  connect(measurementsPanel_, &MeasurementsPanel::toolChanged, this, [this](MeasureTool tool) {
    if (tool != MeasureTool::None) {
      measurementsDock_->show();
      measurementsDock_->raise();
      showMessage(tr("%1: drag on the image (V: back to panning)").arg(toolName(tool)), false);
    }
  });
}

QString MainWindow::earlierCineloopView() const {
  return tr("Earlier cineloop");
}

void MainWindow::addMeasureMenu() {
  QMenu* menu = menuBar()->addMenu(tr("&Measure"));
  for (const MeasureTool tool : {MeasureTool::None, MeasureTool::Caliper, MeasureTool::Ellipse,
                                 MeasureTool::Freehand, MeasureTool::Contrast}) {
    menu->addAction(measurementsPanel_->toolAction(tool));
  }
  menu->addSeparator();
  menu->addAction(measurementsPanel_->toolAction(MeasureTool::Text));
  menu->addAction(measurementsPanel_->toolAction(MeasureTool::Arrow));
}

}  // namespace cineflow::ui

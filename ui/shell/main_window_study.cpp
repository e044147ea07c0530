// MainWindow: File > Patient and study… (Ctrl+Shift+P), the study every export carries, and the
// patient's name in the status bar and the window title so the operator sees who is scanned.

#include <optional>

#include <QAction>
#include <QKeySequence>
#include <QLabel>
#include <QStatusBar>

#include "cineloop/cineloop_panel.hpp"
#include "shell/main_window.hpp"
#include "study/current_study.hpp"
#include "study/study_dialog.hpp"
#include "volumes/volume_controller.hpp"

namespace cineflow::ui {

void MainWindow::createStudy() {
  study_ = new CurrentStudy(this);
  studyAction_ = new QAction(tr("&Patient and study…"), this);
  studyAction_->setObjectName(QStringLiteral("studyAction"));
  studyAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
  studyAction_->setToolTip(
      tr("Enter the patient and the study before scanning: every DICOM and HDF5 export carries "
         "them (Ctrl+Shift+P)"));
  connect(studyAction_, &QAction::triggered, this, &MainWindow::editStudy);

  studyLabel_ = new QLabel(this);
  studyLabel_->setObjectName(QStringLiteral("studyLabel"));
  studyLabel_->setToolTip(tr("The patient being scanned (File > Patient and study…)"));
  statusBar()->addPermanentWidget(studyLabel_);
  const auto show = [this] {
    const QString summary = study_->summary();
    studyLabel_->setText(summary);
    setWindowTitle(study_->study() ? tr("Cineflow — %1").arg(summary) : tr("Cineflow"));
  };
  connect(study_, &CurrentStudy::changed, this, show);
  show();

  volumes_->setStudy(study_);
  cineloopPanel_->setStudy(study_);
}

void MainWindow::editStudy() {
  StudyDialog dialog(study_->study(), this);
  if (dialog.exec() != QDialog::Accepted) {
    return;
  }
  const std::optional<store::StudyInfo> study = dialog.study();
  if (study) {
    study_->begin(*study);
    showMessage(tr("Scanning %1: exports carry this patient and study").arg(study_->summary()),
                false);
  } else {
    study_->end();
    showMessage(tr("No patient: exports are anonymous"), false);
  }
}

}  // namespace cineflow::ui

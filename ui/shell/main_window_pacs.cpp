// MainWindow: File > Send to PACS… (DICOM files chosen by the operator, stored to the PACS on a
// worker) and File > PACS settings… (the PACS's AE title, host and port, tested by C-ECHO). The
// cineloop's DICOM exports go through the same upload when the operator ticks "Send to the PACS".

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QStandardPaths>

#include "cineloop/cineloop_panel.hpp"
#include "export/pacs_dialog.hpp"
#include "export/pacs_settings.hpp"
#include "export/pacs_upload.hpp"
#include "shell/main_window.hpp"
#include "volumes/volume_review_panel.hpp"

namespace cineflow::ui {

void MainWindow::createPacs() {
  pacsUpload_ = new PacsUpload(this);
  connect(pacsUpload_, &PacsUpload::finished, this, [this](bool allStored, const QString& summary) {
    showMessage(summary.section(QLatin1Char('\n'), 0, 0), !allStored);
  });
  cineloopPanel_->setPacsUpload(pacsUpload_);
  volumePanel_->setPacsUpload(pacsUpload_);

  sendToPacsAction_ = new QAction(tr("Send to &PACS…"), this);
  sendToPacsAction_->setObjectName(QStringLiteral("sendToPacsAction"));
  sendToPacsAction_->setToolTip(
      tr("Store DICOM files (exports) to the PACS set in File > PACS settings… (C-STORE); the "
         "files are kept"));
  connect(sendToPacsAction_, &QAction::triggered, this, &MainWindow::chooseFilesForPacs);

  pacsSettingsAction_ = new QAction(tr("PACS &settings…"), this);
  pacsSettingsAction_->setObjectName(QStringLiteral("pacsSettingsAction"));
  pacsSettingsAction_->setToolTip(
      tr("The PACS's AE title, host and port, and Cineflow's own AE title; tested by C-ECHO"));
  connect(pacsSettingsAction_, &QAction::triggered, this, &MainWindow::editPacsSettings);
}

void MainWindow::editPacsSettings() {
  PacsDialog dialog(savedPacsNode(), this);
  if (dialog.exec() == QDialog::Accepted) {
    savePacsNode(dialog.node());
    showMessage(
        tr("DICOM exports go to %1").arg(QString::fromStdString(describePacsNode(dialog.node()))),
        false);
  }
}

void MainWindow::chooseFilesForPacs() {
  if (pacsUpload_->running()) {
    showMessage(tr("A send to the PACS is still running"), true);
    return;
  }
  QString folder = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
  if (!QDir(folder).exists()) {
    folder = QDir::homePath();
  }
  const QStringList files = QFileDialog::getOpenFileNames(this, tr("Send to PACS"), folder,
                                                          tr("DICOM files (*.dcm);;All files (*)"));
  if (!files.isEmpty()) {
    pacsUpload_->sendToSavedPacs(files);
  }
}

}  // namespace cineflow::ui

#include "export/pacs_upload.hpp"

#include <QMessageBox>
#include <QProgressDialog>

#include "common/background_job.hpp"
#include "export/pacs_dialog.hpp"

namespace cineflow::ui {

PacsUpload::PacsUpload(QWidget* window)
    : QObject(window), window_(window), job_(new BackgroundJob("cf-pacs-send", this)) {
  connect(job_, &BackgroundJob::progressed, this, [this](int done, int total) {
    if (progress_) {
      progress_->setMaximum(total);
      progress_->setValue(done);
    }
  });
  connect(job_, &BackgroundJob::finished, this, [this](bool allStored, const QString& message) {
    if (progress_) {
      progress_->deleteLater();
      progress_ = nullptr;
    }
    summary_ = message;
    if (box_) {
      box_->close();
    }
    box_ = new QMessageBox(allStored ? QMessageBox::Information : QMessageBox::Warning,
                           tr("Send to PACS"), message, QMessageBox::Ok, window_);
    box_->setObjectName(QStringLiteral("pacsResultBox"));
    box_->setAttribute(Qt::WA_DeleteOnClose);
    box_->open();
    emit finished(allStored, message);
  });
}

PacsUpload::~PacsUpload() {
  job_->cancelAndWait();
}

bool PacsUpload::running() const {
  return job_->running();
}

bool PacsUpload::sendToSavedPacs(const QStringList& files) {
  if (job_->running()) {
    return false;
  }
  const std::optional<PacsNode> node = pacsNodeOrAsk(window_);
  return node && send(*node, files);
}

bool PacsUpload::send(const PacsNode& node, const QStringList& files) {
  if (job_->running()) {
    return false;
  }
  std::vector<std::string> paths;
  for (const QString& file : files) {
    paths.push_back(file.toStdString());
  }
  progress_ =
      new QProgressDialog((files.size() == 1 ? tr("Sending 1 file to %1…")
                                             : tr("Sending %1 files to %2…").arg(files.size()))
                              .arg(QString::fromStdString(describePacsNode(node))),
                          tr("Cancel"), 0, static_cast<int>(files.size()), window_);
  progress_->setObjectName(QStringLiteral("pacsProgress"));
  progress_->setWindowTitle(tr("Send to PACS"));
  progress_->setMinimumDuration(300);
  progress_->setAutoClose(false);
  progress_->setAutoReset(false);
  connect(progress_, &QProgressDialog::canceled, job_, &BackgroundJob::cancel);
  return job_->start([node, paths](BackgroundJob& job) {
    const PacsSendReport report = sendToPacs(
        node, paths, [&job](int done, int total) { job.progress(done, total); }, job.cancelFlag());
    return BackgroundJob::Result{report.allStored(), QString::fromStdString(report.summary(node))};
  });
}

}  // namespace cineflow::ui

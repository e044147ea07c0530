#pragma once
// "Send to PACS": DICOM files stored to the PACS on a worker (BackgroundJob "cf-pacs-send"), with
// a progress dialog whose Cancel stops before the next file. When the send ends, a message box
// (not modal: the operator goes on working) says how many files the PACS stored and, for each it
// did not, why; the files themselves are never touched (pacs_sender.hpp), so nothing is lost when
// the PACS refuses or disappears, and the operator can send them again.
//
// Made and used on the GUI thread.

#include <QMessageBox>
#include <QObject>
#include <QPointer>
#include <QStringList>

#include "export/pacs_sender.hpp"

class QProgressDialog;
class QWidget;

namespace cineflow::ui {

class BackgroundJob;

class PacsUpload : public QObject {
  Q_OBJECT

 public:
  // `window`: the parent of the progress dialog and the message box.
  explicit PacsUpload(QWidget* window);
  ~PacsUpload() override;  // cancels a send in progress and waits for it

  // Starts sending `files` to `node`; false, starting nothing, while a send runs.
  bool send(const PacsNode& node, const QStringList& files);
  // send() to the saved PACS; with none saved yet, the PACS settings are asked for first
  // (pacsNodeOrAsk). False when the operator cancelled that, or a send runs.
  bool sendToSavedPacs(const QStringList& files);
  bool running() const;
  // The last send's summary (PacsSendReport::summary), "" before any.
  QString lastSummary() const { return summary_; }
  // The box that reported the last send, while it is open.
  QMessageBox* resultBox() const { return box_; }

 signals:
  void finished(bool allStored, const QString& summary);

 private:
  QWidget* window_;
  BackgroundJob* job_;
  QProgressDialog* progress_ = nullptr;
  QPointer<QMessageBox> box_;
  QString summary_;
};

}  // namespace cineflow::ui

#pragma once
// A real PACS for the tests: Debian's Orthanc (package orthanc, installed by
// packaging/install-deps.sh), started by the test with its own configuration and a temporary
// storage folder, and stopped by it. Its REST API answers on 127.0.0.1 only; its DICOM port takes
// associations only from the AE title it is told of, calling from 127.0.0.1 (DicomModalities with
// DicomCheckModalityHost; the always-allow switches are off), so nothing off the loopback interface
// can store into it. Both ports are chosen free at start.

#include <QByteArray>
#include <QJsonDocument>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>
#include <memory>

namespace cineflow::test {

class OrthancServer {
 public:
  // Starts Orthanc as the PACS `aeTitle`, accepting C-ECHO and C-STORE from `allowedCaller` on
  // 127.0.0.1, and waits until its REST API answers (QFAIL style: started() false and why() set
  // when it could not).
  OrthancServer(const QString& aeTitle, const QString& allowedCaller);
  ~OrthancServer();  // stops it, removes its storage
  OrthancServer(const OrthancServer&) = delete;
  OrthancServer& operator=(const OrthancServer&) = delete;

  bool started() const { return why_.isEmpty(); }
  const QString& why() const { return why_; }
  int dicomPort() const { return dicomPort_; }
  const QString& aeTitle() const { return aeTitle_; }
  // Kills it at once (a PACS that disappears); its ports stay closed.
  void kill();

  struct Reply {
    int status = 0;  // the HTTP status; 0 when no answer came
    QByteArray body;
  };
  // GET on the REST API ("/instances", "/instances/<id>/file").
  Reply get(const QString& path) const;
  // GET, parsed as JSON (a null document when the status was not 200 or the body not JSON).
  QJsonDocument getJson(const QString& path) const;

 private:
  QString aeTitle_;
  QString why_;
  int dicomPort_ = 0;
  int httpPort_ = 0;
  QTemporaryDir storage_;
  std::unique_ptr<QProcess> process_;
};

}  // namespace cineflow::test

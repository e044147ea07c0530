#include "orthanc_server.hpp"

#include "free_port.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QStandardPaths>
#include <QThread>

namespace cineflow::test {
namespace {

constexpr int kStartMs = 30000;

}  // namespace

OrthancServer::OrthancServer(const QString& aeTitle, const QString& allowedCaller)
    : aeTitle_(aeTitle) {
  const QString program =
      QStandardPaths::findExecutable(QStringLiteral("Orthanc"), {QStringLiteral("/usr/sbin")});
  if (program.isEmpty()) {
    why_ = QStringLiteral(
        "Orthanc is not installed (Debian's orthanc: packaging/install-deps.sh installs it)");
    return;
  }
  if (!storage_.isValid()) {
    why_ = QStringLiteral("no temporary folder for Orthanc's storage");
    return;
  }
  dicomPort_ = freeLoopbackPort();
  httpPort_ = freeLoopbackPort();
  QJsonObject config;
  config[QStringLiteral("Name")] = QStringLiteral("Cineflow test PACS");
  config[QStringLiteral("StorageDirectory")] = storage_.filePath(QStringLiteral("db"));
  config[QStringLiteral("IndexDirectory")] = storage_.filePath(QStringLiteral("db"));
  config[QStringLiteral("HttpPort")] = httpPort_;
  config[QStringLiteral("DicomPort")] = dicomPort_;
  config[QStringLiteral("DicomAet")] = aeTitle;
  config[QStringLiteral("RemoteAccessAllowed")] = false;
  config[QStringLiteral("AuthenticationEnabled")] = false;
  config[QStringLiteral("DicomCheckCalledAet")] = true;
  config[QStringLiteral("DicomAlwaysAllowEcho")] = false;
  config[QStringLiteral("DicomAlwaysAllowStore")] = false;
  config[QStringLiteral("DicomCheckModalityHost")] = true;
  config[QStringLiteral("DicomScpTimeout")] = 10;
  config[QStringLiteral("SaveJobs")] = false;
  config[QStringLiteral("Plugins")] = QJsonArray();
  QJsonObject modalities;
  modalities[QStringLiteral("cineflow")] =
      QJsonArray{allowedCaller, QStringLiteral("127.0.0.1"), 104};
  config[QStringLiteral("DicomModalities")] = modalities;
  const QString configPath = storage_.filePath(QStringLiteral("orthanc.json"));
  QFile file(configPath);
  if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(config).toJson()) < 0 ||
      !file.flush()) {
    why_ = QStringLiteral("cannot write Orthanc's configuration ") + configPath;
    return;
  }
  file.close();

  process_ = std::make_unique<QProcess>();
  process_->setWorkingDirectory(storage_.path());
  process_->setStandardOutputFile(storage_.filePath(QStringLiteral("orthanc.log")));
  process_->setStandardErrorFile(storage_.filePath(QStringLiteral("orthanc.log")),
                                 QIODevice::Append);
  process_->start(program, {configPath});
  if (!process_->waitForStarted(10000)) {
    why_ = QStringLiteral("Orthanc did not start: ") + process_->errorString();
    return;
  }
  QElapsedTimer clock;
  clock.start();
  while (clock.elapsed() < kStartMs) {
    if (process_->state() != QProcess::Running) {
      QFile log(storage_.filePath(QStringLiteral("orthanc.log")));
      log.open(QIODevice::ReadOnly);
      why_ =
          QStringLiteral("Orthanc exited at once: ") + QString::fromUtf8(log.readAll().right(600));
      return;
    }
    if (get(QStringLiteral("/system")).status == 200) {
      return;
    }
    QThread::msleep(100);
  }
  why_ = QStringLiteral("Orthanc's REST API did not answer on 127.0.0.1:") +
         QString::number(httpPort_);
}

OrthancServer::~OrthancServer() {
  kill();
}

void OrthancServer::kill() {
  if (process_ && process_->state() != QProcess::NotRunning) {
    process_->kill();
    process_->waitForFinished(10000);
  }
}

OrthancServer::Reply OrthancServer::get(const QString& path) const {
  Reply reply;
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) {
    return reply;
  }
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<std::uint16_t>(httpPort_));
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return reply;
  }
  const QByteArray request = "GET " + path.toUtf8() + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
  if (::send(fd, request.constData(), static_cast<std::size_t>(request.size()), MSG_NOSIGNAL) !=
      request.size()) {
    ::close(fd);
    return reply;
  }
  QByteArray answer;
  char buffer[65536];
  for (;;) {
    const ssize_t got = ::recv(fd, buffer, sizeof buffer, 0);
    if (got <= 0) {
      break;
    }
    answer.append(buffer, static_cast<qsizetype>(got));
  }
  ::close(fd);
  const qsizetype headerEnd = answer.indexOf("\r\n\r\n");
  if (!answer.startsWith("HTTP/") || headerEnd < 0) {
    return reply;
  }
  const QList<QByteArray> statusLine = answer.left(answer.indexOf("\r\n")).split(' ');
  reply.status = statusLine.size() >= 2 ? statusLine[1].toInt() : 0;
  reply.body = answer.mid(headerEnd + 4);
  return reply;
}

QJsonDocument OrthancServer::getJson(const QString& path) const {
  const Reply reply = get(path);
  return reply.status == 200 ? QJsonDocument::fromJson(reply.body) : QJsonDocument();
}

}  // namespace cineflow::test

#include "support/stream_sender.hpp"

#include <QFile>

#include <chrono>
#include <string>
#include <zmq.hpp>

#include "registry/source_factory.hpp"

namespace cineflow::test {

using namespace std::chrono_literals;

QString python() {
  return QFile::exists("/usr/bin/python3") ? QStringLiteral("/usr/bin/python3")
                                           : QStringLiteral("python3");
}

QString senderUnavailable() {
  QProcess probe;
  probe.start(python(), {"-c", "import zmq, h5py, numpy"});
  if (probe.waitForFinished(30000) && probe.exitCode() == 0) {
    return {};
  }
  return QStringLiteral(
      "the sender needs Debian's python3-zmq, python3-h5py and python3-numpy "
      "(packaging/install-deps.sh installs them)");
}

int freePort() {
  zmq::context_t context;
  zmq::socket_t probe(context, zmq::socket_type::pull);
  probe.bind("tcp://127.0.0.1:*");
  const std::string endpoint = probe.get(zmq::sockopt::last_endpoint);
  return std::stoi(endpoint.substr(endpoint.rfind(':') + 1));
}

QString loopback(int port) {
  return QString("tcp://127.0.0.1:%1").arg(port);
}

Sender::Sender(const QString& recording, int port, const QStringList& options) {
  process_.setProcessChannelMode(QProcess::ForwardedErrorChannel);
  process_.start(python(),
                 QStringList{QStringLiteral(CINEFLOW_TEST_SOURCE_DIR "/../tools/send_frames.py"),
                             recording, "--endpoint", loopback(port)} +
                     options);
  if (!process_.waitForStarted(10000)) {
    qFatal("cannot start %s", qPrintable(python()));
  }
}

void Sender::kill() {
  if (process_.state() != QProcess::NotRunning) {
    process_.kill();
    process_.waitForFinished(10000);
  }
}

bool Sender::finishedWell(int ms) {
  return process_.waitForFinished(ms) && process_.exitStatus() == QProcess::NormalExit &&
         process_.exitCode() == 0;
}

std::unique_ptr<acquire::FrameSource> openStream(int port) {
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  return acquire::openSource("zmq:" + loopback(port).toStdString(), 0,
                             [deadline](double, const std::string& what) {
                               if (std::chrono::steady_clock::now() > deadline) {
                                 throw acquire::SourceError("nothing within 30 s: " + what);
                               }
                             });
}

}  // namespace cineflow::test

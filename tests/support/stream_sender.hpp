#pragma once
// The network stream tests' sender: tools/send_frames.py, run by Debian's Python in a subprocess
// on the loopback interface, and what the tests need around it.

#include <QProcess>
#include <QString>
#include <QStringList>

#include <memory>

#include "acquire/frame_source.hpp"

namespace cineflow::test {

// Debian's interpreter, where python3-zmq, python3-h5py and python3-numpy live.
QString python();
// Whether python() can run the sender; otherwise the reason to skip.
QString senderUnavailable();

// A loopback port nobody listens on now (the system's choice for a wildcard bind, released).
int freePort();
QString loopback(int port);  // "tcp://127.0.0.1:PORT"

// `send_frames.py RECORDING --endpoint tcp://127.0.0.1:PORT OPTIONS...`; killed (if still
// running) when it goes out of scope.
class Sender {
 public:
  Sender(const QString& recording, int port, const QStringList& options);
  ~Sender() { kill(); }
  Sender(const Sender&) = delete;
  Sender& operator=(const Sender&) = delete;
  void kill();
  bool finishedWell(int ms = 20000);

 private:
  QProcess process_;
};

// Opens "zmq:tcp://127.0.0.1:PORT", giving up after 30 s without a header (or first frame).
std::unique_ptr<acquire::FrameSource> openStream(int port);

}  // namespace cineflow::test

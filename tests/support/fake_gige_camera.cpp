#include "fake_gige_camera.hpp"

#include <QElapsedTimer>
#include <QStandardPaths>
#include <QThread>

#include "acquire/genicam_camera.hpp"

namespace cineflow::test {
namespace {

constexpr int kDiscoveryMs = 15000;

bool discovered(const QString& id) {
  for (const acquire::CameraInfo& camera : acquire::listCameras()) {
    if (QString::fromStdString(camera.id) == id) {
      return true;
    }
  }
  return false;
}

}  // namespace

FakeGigeCamera::FakeGigeCamera(const QString& serial) : serial_(serial) {
  start();
}

FakeGigeCamera::~FakeGigeCamera() {
  kill();
}

bool FakeGigeCamera::start() {
  why_.clear();
  const QString program = QStandardPaths::findExecutable(QStringLiteral("arv-fake-gv-camera-0.8"));
  if (program.isEmpty()) {
    why_ = QStringLiteral(
        "arv-fake-gv-camera-0.8 is not installed (Debian's aravis-tools: "
        "packaging/install-deps.sh installs it)");
    return false;
  }
  // A second simulator on 127.0.0.1 would answer in this one's place (and survive its kill).
  for (const acquire::CameraInfo& camera : acquire::listCameras()) {
    if (camera.address == "127.0.0.1") {
      why_ = QStringLiteral("another GigE Vision device already answers on 127.0.0.1 (") +
             QString::fromStdString(camera.id) + QStringLiteral("): stop it first");
      return false;
    }
  }
  process_ = std::make_unique<QProcess>();
  process_->setProcessChannelMode(QProcess::ForwardedErrorChannel);
  process_->setStandardOutputFile(QProcess::nullDevice());
  process_->start(
      program, {QStringLiteral("-i"), QStringLiteral("127.0.0.1"), QStringLiteral("-s"), serial_});
  if (!process_->waitForStarted(10000)) {
    why_ = QStringLiteral("the GigE Vision simulator did not start: ") + process_->errorString();
    return false;
  }
  QElapsedTimer clock;
  clock.start();
  while (clock.elapsed() < kDiscoveryMs) {
    if (process_->state() != QProcess::Running) {
      why_ = QStringLiteral(
          "the GigE Vision simulator exited at once (is another one listening on 127.0.0.1:3956?)");
      return false;
    }
    if (discovered(id())) {
      return true;
    }
    QThread::msleep(100);
  }
  why_ = QStringLiteral("Aravis did not discover the simulator ") + id() +
         QStringLiteral(" on the loopback interface");
  return false;
}

void FakeGigeCamera::kill() {
  if (process_ && process_->state() != QProcess::NotRunning) {
    process_->kill();
    process_->waitForFinished(10000);
  }
  process_.reset();
}

std::uint16_t fakeMono8(int x, int y, std::uint64_t frameId) {
  return static_cast<std::uint16_t>((static_cast<std::uint64_t>(x + y) + frameId) % 255);
}

std::uint16_t fakeMono16(int x, int y, std::uint64_t frameId) {
  return static_cast<std::uint16_t>((256 * (static_cast<std::uint64_t>(x + y) + frameId)) % 65535);
}

}  // namespace cineflow::test

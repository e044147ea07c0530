#pragma once
// A real GigE Vision camera for the tests: Aravis' own simulator (arv-fake-gv-camera-0.8, from
// Debian's aravis-tools, installed by packaging/install-deps.sh), started on the loopback
// interface and stopped by the test. What it sends is known exactly: frame id n (1, 2, ...; its
// 16-bit counter runs on from earlier runs of the same process) fills pixel (x, y) with
//   Mono8:  ((x + y + n) mod 255) * s        Mono16: ((256 (x + y + n)) mod 65535) * s
// clamped, with s = 1 + GainRaw + log10(ExposureTimeAbs / 10000 us): s = 1 exactly at GainRaw 0
// and an exposure of 10000 us, which the tests set.
//
// Only one simulator can listen on 127.0.0.1's GigE Vision port: the tests that start one share a
// CTest RESOURCE_LOCK.

#include <QProcess>
#include <QString>
#include <cstdint>
#include <memory>

namespace cineflow::test {

class FakeGigeCamera {
 public:
  // Starts the simulator with serial number `serial` and waits until Aravis discovers it (QFAIL
  // style: returns with started() false and why() set when it could not).
  explicit FakeGigeCamera(const QString& serial);
  ~FakeGigeCamera();  // stops it
  FakeGigeCamera(const FakeGigeCamera&) = delete;
  FakeGigeCamera& operator=(const FakeGigeCamera&) = delete;

  bool started() const { return why_.isEmpty(); }
  const QString& why() const { return why_; }
  // The id genicam:// and cineflow cameras take: "Aravis-Fake-<serial>".
  QString id() const { return QStringLiteral("Aravis-Fake-") + serial_; }
  // Kills it at once (a camera unplugged mid-run); start() brings it back.
  void kill();
  bool start();

 private:
  QString serial_;
  QString why_;
  std::unique_ptr<QProcess> process_;
};

// The simulator's pixel at (x, y) of frame id `frameId`, at scale 1 (see above).
std::uint16_t fakeMono8(int x, int y, std::uint64_t frameId);
std::uint16_t fakeMono16(int x, int y, std::uint64_t frameId);

}  // namespace cineflow::test

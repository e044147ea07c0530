// The network stream source (acquire/stream_receiver.hpp, acquire/stream_feed.hpp,
// ultrasound/stream_source.hpp) against the real sender, tools/send_frames.py, run by Debian's
// Python in a subprocess on the loopback interface: frames arrive bit for bit as recorded; gaps in
// the sender's sequence are counted as lost (and reach the engine's statistics); a malformed
// message is counted and skipped; a sender killed mid-stream shows "waiting for frames" and a
// restarted one resumes; a sender whose stream changed, or a header Cineflow cannot image, is
// refused with the reason; and stop() ends a wait for frames at once. The recordings are seeded
// random samples written with the plain HDF5 API (support/rf_file_fixture.hpp).
#include <QtTest>

#include <QProcess>
#include <QTemporaryDir>

#include <chrono>
#include <cstring>
#include <future>
#include <thread>
#include <zmq.hpp>

#include "modality/source_factory.hpp"
#include "pipeline/engine.hpp"
#include "support/refusal.hpp"
#include "support/rf_file_fixture.hpp"
#include "ultrasound/stream_source.hpp"

using namespace cineflow;
using test::refusal;
using namespace std::chrono_literals;

namespace {

QString python() {
  // Debian's interpreter, where python3-zmq, python3-h5py and python3-numpy live.
  return QFile::exists("/usr/bin/python3") ? QStringLiteral("/usr/bin/python3")
                                           : QStringLiteral("python3");
}

QString senderScript() {
  return QStringLiteral(CINEFLOW_TEST_SOURCE_DIR "/../tools/send_frames.py");
}

// A loopback port nobody listens on now (the system's choice for a wildcard bind, released).
int freePort() {
  zmq::context_t context;
  zmq::socket_t probe(context, zmq::socket_type::pull);
  probe.bind("tcp://127.0.0.1:*");
  const std::string endpoint = probe.get(zmq::sockopt::last_endpoint);
  return std::stoi(endpoint.substr(endpoint.rfind(':') + 1));
}

// The sender in a subprocess; killed (if still running) when it goes out of scope.
class Sender {
 public:
  Sender(const QString& recording, int port, const QStringList& options) {
    process_.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process_.start(python(), QStringList{senderScript(), recording, "--endpoint",
                                         QString("tcp://127.0.0.1:%1").arg(port)} +
                                 options);
    if (!process_.waitForStarted(10000)) {
      qFatal("cannot start %s", qPrintable(python()));
    }
  }
  ~Sender() { kill(); }
  void kill() {
    if (process_.state() != QProcess::NotRunning) {
      process_.kill();
      process_.waitForFinished(10000);
    }
  }
  bool finishedWell(int ms = 20000) {
    return process_.waitForFinished(ms) && process_.exitStatus() == QProcess::NormalExit &&
           process_.exitCode() == 0;
  }

 private:
  QProcess process_;
};

// Opens "zmq:tcp://127.0.0.1:PORT", giving up after 30 s without a header.
std::unique_ptr<acquire::FrameSource> openStream(int port) {
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  return acquire::openSource(QString("zmq:tcp://127.0.0.1:%1").arg(port).toStdString(), 0,
                             [deadline](double, const std::string& what) {
                               if (std::chrono::steady_clock::now() > deadline) {
                                 throw acquire::SourceError("no header within 30 s: " + what);
                               }
                             });
}

acquire::NetworkSource& network(acquire::FrameSource& source) {
  return dynamic_cast<acquire::NetworkSource&>(source);
}

// Frame `index` of the recording, as bytes.
std::vector<std::byte> recorded(const test::RfFileContents& contents, std::size_t index) {
  std::vector<std::byte> bytes(contents.frameSamples * sizeof(std::int16_t));
  std::memcpy(bytes.data(), contents.int16Samples.data() + index * contents.frameSamples,
              bytes.size());
  return bytes;
}

// Waits up to 20 s for `condition`.
template <class Condition>
bool eventually(Condition condition) {
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) {
      return false;
    }
    std::this_thread::sleep_for(20ms);
  }
  return true;
}

}  // namespace

class TestNetworkStream : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;
  QString recording_;
  test::RfFileContents contents_;
  test::RfFileSpec spec_;

 private slots:
  void initTestCase() {
    QProcess probe;
    probe.start(python(), {"-c", "import zmq, h5py, numpy"});
    if (!probe.waitForFinished(30000) || probe.exitCode() != 0) {
      QSKIP(
          "the sender needs Debian's python3-zmq, python3-h5py and python3-numpy "
          "(packaging/install-deps.sh installs them)");
    }
    QVERIFY(dir_.isValid());
    recording_ = dir_.filePath("stream.h5");
    spec_.frames = 5;
    spec_.transmits = 3;
    spec_.elements = 32;
    spec_.samples = 256;
    spec_.seed = 2111;
    contents_ = test::writeRfFile(recording_.toStdString(), spec_);
  }

  void framesArriveBitForBitAndStopEndsTheWait() {
    const int port = freePort();
    Sender sender(recording_, port, {"--rate", "0", "--block", "--frames", "12"});
    auto source = openStream(port);
    auto& stream = network(*source);
    QCOMPARE(stream.params().samples, spec_.samples);
    QCOMPARE(stream.params().anglesRad, contents_.anglesRad);
    QCOMPARE(stream.params().elementXM, contents_.elementXM);
    QCOMPARE(stream.params().samplingFrequencyHz, spec_.fs);
    QCOMPARE(stream.params().fractionalBandwidth, spec_.fractionalBandwidthPercent / 100);
    QCOMPARE(stream.frameRateHz(), 0.0);  // the sender paces
    stream.startAcquisition();
    std::vector<std::byte> frame(stream.frameBytes());
    for (std::size_t k = 0; k < 12; ++k) {
      acquire::SliceInfo slice;
      stream.readFrame(k, frame, slice);
      QVERIFY2(frame == recorded(contents_, k % 5), qPrintable(QString("frame %1").arg(k)));
      QCOMPARE(slice.elevationM, contents_.elevationM[k % 5]);
    }
    QCOMPARE(stream.lostFrames(), std::uint64_t{0});
    QCOMPARE(stream.malformedMessages(), std::uint64_t{0});
    QVERIFY(sender.finishedWell());
    // The sender said "end": a read waits, the status says so, and stop() ends the wait.
    auto waiting = std::async(std::launch::async, [&] {
      acquire::SliceInfo slice;
      return refusal([&] { stream.readFrame(12, frame, slice); });
    });
    QVERIFY2(eventually([&] { return stream.liveStatus().find("the sender finished") == 0; }),
             stream.liveStatus().c_str());
    stream.stopAcquisition();
    QCOMPARE(waiting.wait_for(5s), std::future_status::ready);
    QCOMPARE(waiting.get(), QString("the acquisition was stopped"));
  }

  void gapsAreLostFramesAndMalformedMessagesAreSkipped() {
    const int port = freePort();
    Sender sender(recording_, port,
                  {"--rate", "0", "--block", "--frames", "10", "--start-sequence", "100", "--skip",
                   "103", "--skip", "104", "--malformed-before", "106"});
    auto source = openStream(port);
    auto& stream = network(*source);
    stream.startAcquisition();
    std::vector<std::byte> frame(stream.frameBytes());
    const std::size_t expected[] = {0, 1, 2, 5, 6, 7, 8, 9};  // 103 and 104 never sent
    for (const std::size_t k : expected) {
      acquire::SliceInfo slice;
      stream.readFrame(0, frame, slice);
      QVERIFY2(frame == recorded(contents_, k % 5), qPrintable(QString("frame %1").arg(k)));
    }
    QCOMPARE(stream.lostFrames(), std::uint64_t{2});
    QCOMPARE(stream.malformedMessages(), std::uint64_t{1});
    QVERIFY2(stream.liveStatus().find("1 malformed message skipped (last: a frame without a "
                                      "non-negative integer \"sequence\")") != std::string::npos,
             stream.liveStatus().c_str());
    QVERIFY(sender.finishedWell());
  }

  void aKilledSenderIsWaitedForAndARestartedOneResumes() {
    const int port = freePort();
    auto first = std::make_unique<Sender>(recording_, port, QStringList{"--rate", "50", "--block"});
    auto source = openStream(port);
    auto& stream = network(*source);
    stream.startAcquisition();
    std::vector<std::byte> frame(stream.frameBytes());
    acquire::SliceInfo slice;
    for (std::size_t k = 0; k < 4; ++k) {
      stream.readFrame(k, frame, slice);
      QVERIFY(frame == recorded(contents_, k % 5));
    }
    first->kill();  // SIGKILL: no "end", the sender is just gone
    auto next = std::async(std::launch::async, [&] {
      std::vector<std::byte> bytes(stream.frameBytes());
      acquire::SliceInfo s;
      // Frames the killed sender had queued may still come first: read until the restarted
      // sender's first frame (sequence 0 again, recording frame 0) after the wait was seen.
      stream.readFrame(0, bytes, s);
      return bytes;
    });
    // Queued frames drain within milliseconds; then the silence shows.
    std::vector<std::vector<std::byte>> drained;
    while (next.wait_for(50ms) == std::future_status::ready) {
      drained.push_back(next.get());
      next = std::async(std::launch::async, [&] {
        std::vector<std::byte> bytes(stream.frameBytes());
        acquire::SliceInfo s;
        stream.readFrame(0, bytes, s);
        return bytes;
      });
    }
    QVERIFY2(eventually([&] { return stream.liveStatus().find("waiting for frames on") == 0; }),
             stream.liveStatus().c_str());
    QVERIFY(stream.liveStatus().find(": nothing for ") != std::string::npos);
    Sender second(recording_, port, {"--rate", "50", "--block", "--frames", "3"});
    QCOMPARE(next.wait_for(20s), std::future_status::ready);
    QVERIFY(next.get() == recorded(contents_, 0));
    for (std::size_t k = 1; k < 3; ++k) {
      stream.readFrame(k, frame, slice);
      QVERIFY(frame == recorded(contents_, k));
    }
    QVERIFY(stream.liveStatus().empty());
    QCOMPARE(stream.lostFrames(), std::uint64_t{0});  // a sequence that starts again loses nothing
    QVERIFY(second.finishedWell());
  }

  void aChangedStreamOrABadHeaderIsRefused() {
    // A restarted sender streaming other frames (more samples): the run stops, saying why.
    const int port = freePort();
    {
      Sender sender(recording_, port, {"--rate", "0", "--block", "--frames", "1"});
      auto source = openStream(port);
      auto& stream = network(*source);
      stream.startAcquisition();
      std::vector<std::byte> frame(stream.frameBytes());
      acquire::SliceInfo slice;
      stream.readFrame(0, frame, slice);
      QVERIFY(sender.finishedWell());
      test::RfFileSpec other = spec_;
      other.samples = 300;
      const QString otherPath = dir_.filePath("other.h5");
      test::writeRfFile(otherPath.toStdString(), other);
      Sender changed(otherPath, port, {"--rate", "0", "--block", "--frames", "2"});
      const QString why = refusal([&] { stream.readFrame(1, frame, slice); });
      QVERIFY2(why.contains("the sender's stream changed"), qPrintable(why));
    }
    // Headers Cineflow cannot image, sent by hand: refused naming the field.
    const std::pair<const char*, const char*> cases[] = {
        {R"({"type": "header", "schema": "cineflow.stream/9"})",
         "the header's \"schema\" is \"cineflow.stream/9\", expected \"cineflow.stream/1\""},
        {R"({"type": "header", "schema": "cineflow.stream/1", "modality": "oct"})",
         "the header's \"modality\" is \"oct\""},
        {R"({"type": "header", "schema": "cineflow.stream/1", "modality": "ultrasound",
             "angles_rad": [0], "element_x_m": [0, 1e-3], "samples": 64, "sample_type": "int8"})",
         "the header's \"sample_type\" is \"int8\""},
        {R"({"type": "header", "schema": "cineflow.stream/1", "modality": "ultrasound",
             "angles_rad": [0], "element_x_m": [0, 1e-3], "samples": 64, "sample_type": "int16",
             "sampling_frequency_hz": "fast"})",
         "the header's \"sampling_frequency_hz\" is \"fast\", expected a number"},
        {R"({"type": "header", "schema": "cineflow.stream/1", "modality": "ultrasound",
             "angles_rad": [0], "element_x_m": [1e-3, 0], "samples": 64, "sample_type": "int16",
             "sampling_frequency_hz": 2e7, "center_frequency_hz": 5e6})",
         "its stream cannot be imaged: elementXM must be strictly increasing"},
    };
    for (const auto& [header, reason] : cases) {
      const int badPort = freePort();
      zmq::context_t context;
      zmq::socket_t push(context, zmq::socket_type::push);
      push.set(zmq::sockopt::linger, 1000);
      push.connect(QString("tcp://127.0.0.1:%1").arg(badPort).toStdString());
      // Something malformed first: skipped while Cineflow waits for a header.
      push.send(zmq::str_buffer("not json"), zmq::send_flags::none);
      push.send(zmq::buffer(std::string(header)), zmq::send_flags::none);
      const QString why = refusal([&] { openStream(badPort); });
      QVERIFY2(why.contains(reason), qPrintable(QString("%1 -> %2").arg(header, why)));
    }
    QVERIFY(refusal([] {
              acquire::openSource("zmq:tcp://127.0.0.1:notaport");
            }).contains("network stream: cannot listen on 'tcp://127.0.0.1:notaport'"));
  }

  void theEngineImagesAStreamAndCountsItsGaps() {
    const int port = freePort();
    Sender sender(recording_, port,
                  {"--rate", "0", "--block", "--frames", "9", "--skip", "4", "--skip", "5"});
    auto backend = compute::createBackend(compute::BackendRequest::Cpu);
    pipeline::EngineConfig config;
    config.pace = false;
    config.maxFrames = 9;  // sequence numbers 0-8, two of them never sent
    pipeline::Engine engine(*backend, config);
    engine.setSource(openStream(port));
    std::mutex mutex;
    std::vector<std::uint64_t> sequences;
    engine.setFrameObserver([&](const pipeline::CompletedFrame& f) {
      std::lock_guard lock(mutex);
      sequences.push_back(f.header.sequence);
    });
    engine.start();
    QCOMPARE(engine.waitUntilFinished(), pipeline::EngineState::Finished);
    const pipeline::EngineStats stats = engine.stats();
    engine.stop();
    QCOMPARE(stats.lost, std::uint64_t{2});
    QCOMPARE(stats.processed, std::uint64_t{7});
    std::lock_guard lock(mutex);
    QCOMPARE(sequences, (std::vector<std::uint64_t>{0, 1, 2, 3, 6, 7, 8}));  // the gap kept
    QVERIFY(sender.finishedWell());

    // A sender that stops after one frame: the engine waits for the rest, showing why, and
    // stop() ends the wait (without it, this test would hang), a stop and not a failure.
    const int silentPort = freePort();
    Sender silent(recording_, silentPort, {"--rate", "0", "--block", "--frames", "1"});
    engine.setSource(openStream(silentPort));
    engine.setFrameObserver({});
    QVERIFY(silent.finishedWell());
    engine.start();
    QVERIFY(eventually([&] {
      return engine.stats().sourceStatus.find("the sender finished; waiting for frames") == 0;
    }));
    QVERIFY(eventually([&] { return engine.stats().processed == 1; }));
    engine.stop();
    QCOMPARE(engine.state(), pipeline::EngineState::Stopped);
    QVERIFY(engine.stats().error.empty());
  }
};

QTEST_GUILESS_MAIN(TestNetworkStream)
#include "test_network_stream.moc"

// The network stream source (acquire/stream_receiver.hpp, acquire/stream_feed.hpp,
// ultrasound/stream_source.hpp) against the real sender, tools/send_frames.py, run by Debian's
// Python in a subprocess on the loopback interface: frames arrive bit for bit as recorded; gaps in
// the sender's sequence and truncated frames are counted as lost (and reach the engine's
// statistics, which maxFrames does not count); a malformed message is counted and skipped; a
// second sender's frames are left out and counted; a sender killed mid-stream shows "waiting for
// frames" and a restarted one resumes; a sender whose stream changed, or a header Cineflow cannot
// image, is refused with the reason; and stop() ends a wait for frames at once. The recordings are
// seeded random samples written with the plain HDF5 API (support/rf_file_fixture.hpp).
#include <QtTest>

#include <QTemporaryDir>

#include <chrono>
#include <cstring>
#include <future>
#include <mutex>
#include <thread>
#include <zmq.hpp>

#include "pipeline/engine.hpp"
#include "registry/source_factory.hpp"
#include "support/refusal.hpp"
#include "support/rf_file_fixture.hpp"
#include "support/stream_sender.hpp"
#include "ultrasound/stream_source.hpp"

using namespace cineflow;
using test::freePort;
using test::openStream;
using test::refusal;
using test::Sender;
using namespace std::chrono_literals;

namespace {

ultrasound::NetworkSource& network(acquire::FrameSource& source) {
  return dynamic_cast<ultrasound::NetworkSource&>(source);
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

pipeline::EngineConfig unpaced(std::uint64_t maxFrames) {
  pipeline::EngineConfig config;
  config.pace = false;
  config.maxFrames = maxFrames;
  return config;
}

// An engine on the CPU backend imaging the stream on `port`, keeping the sequence numbers of the
// frames it imaged.
struct StreamEngine {
  StreamEngine(int port, std::uint64_t maxFrames)
      : backend(compute::createBackend(compute::BackendRequest::Cpu)),
        engine(*backend, unpaced(maxFrames)) {
    engine.setSource(openStream(port));
    engine.setFrameObserver([this](const pipeline::CompletedFrame& f) {
      std::lock_guard lock(mutex);
      sequences.push_back(f.header.sequence);
    });
  }
  std::vector<std::uint64_t> imaged() {
    std::lock_guard lock(mutex);
    return sequences;
  }

  std::unique_ptr<compute::Backend> backend;
  pipeline::Engine engine;
  std::mutex mutex;
  std::vector<std::uint64_t> sequences;
};

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
    if (const QString why = test::senderUnavailable(); !why.isEmpty()) {
      QSKIP(qPrintable(why));
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

  void gapsAndTruncatedFramesAreLostAndMalformedMessagesAreSkipped() {
    const int port = freePort();
    Sender sender(recording_, port,
                  {"--rate", "0", "--block", "--frames", "10", "--start-sequence", "100", "--skip",
                   "103", "--skip", "104", "--malformed-before", "106", "--truncate", "107"});
    auto source = openStream(port);
    auto& stream = network(*source);
    stream.startAcquisition();
    std::vector<std::byte> frame(stream.frameBytes());
    const std::size_t expected[] = {0, 1, 2, 5, 6, 8, 9};  // 103, 104 never sent; 107 cut short
    for (const std::size_t k : expected) {
      acquire::SliceInfo slice;
      stream.readFrame(0, frame, slice);
      QVERIFY2(frame == recorded(contents_, k % 5), qPrintable(QString("frame %1").arg(k)));
    }
    QCOMPARE(stream.lostFrames(), std::uint64_t{3});  // the truncated frame's number is no gap
    const acquire::LostFrames lost = stream.lostFramesByKind();
    QCOMPARE(lost.sequenceGaps, std::uint64_t{2});
    QCOMPARE(lost.truncated, std::uint64_t{1});
    QCOMPARE(lost.otherSender, std::uint64_t{0});
    QCOMPARE(stream.malformedMessages(), std::uint64_t{1});
    QVERIFY2(stream.liveStatus().find("1 malformed message skipped, 1 truncated frame left out "
                                      "(last: a frame of 49150 bytes; the stream's frames have "
                                      "49152)") != std::string::npos,
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
        {R"({"type": "header", "schema": "cineflow.stream/1", "modality": "ultrasound",
             "angles_rad": [0], "element_x_m": [0, 1e-3], "samples": 64, "sample_type": "int16",
             "sampling_frequency_hz": 2e7, "center_frequency_hz": 5e6,
             "fractional_bandwidth": 60})",
         "the header's \"fractional_bandwidth\" is 60, expected the -6 dB band as a fraction of "
         "center_frequency_hz, in (0, 2)"},
        {R"({"type": "header", "schema": "cineflow.stream/1", "modality": "ultrasound",
             "angles_rad": [0], "element_x_m": [0, 1e-3], "samples": 64, "sample_type": "int16",
             "sampling_frequency_hz": 2e7, "center_frequency_hz": 5e6,
             "fractional_bandwidth": 0})",
         "the header's \"fractional_bandwidth\" is 0, expected"},
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
    StreamEngine imaging(port, 7);  // frames imaged: sequence numbers 0-8, two never sent
    pipeline::Engine& engine = imaging.engine;
    engine.start();
    QCOMPARE(engine.waitUntilFinished(), pipeline::EngineState::Finished);
    const pipeline::EngineStats stats = engine.stats();
    engine.stop();
    QCOMPARE(stats.lost, std::uint64_t{2});
    QCOMPARE(stats.processed, std::uint64_t{7});
    QCOMPARE(imaging.imaged(), (std::vector<std::uint64_t>{0, 1, 2, 3, 6, 7, 8}));  // gap kept
    QCOMPARE(stats.lostByKind.sequenceGaps, std::uint64_t{2});
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

  void aSecondSendersFramesAreLeftOutAndCounted() {
    const int port = freePort();
    Sender first(recording_, port, {"--rate", "20", "--block"});  // until killed
    StreamEngine imaging(port, 0);
    pipeline::Engine& engine = imaging.engine;
    engine.start();
    QVERIFY(eventually([&] { return engine.stats().processed >= 3; }));
    // Another sender on the same endpoint while the first streams: its frames (numbered far from
    // the first's), its headers and its "end" are all left out.
    Sender second(recording_, port,
                  {"--rate", "0", "--block", "--frames", "4", "--start-sequence", "5000"});
    QVERIFY(second.finishedWell());
    QVERIFY2(eventually([&] { return engine.stats().lostByKind.otherSender == 4; }),
             engine.stats().sourceStatus.c_str());
    const std::uint64_t seen = engine.stats().processed;
    QVERIFY(eventually([&] { return engine.stats().processed >= seen + 3; }));  // still imaging
    engine.stop();
    const pipeline::EngineStats stats = engine.stats();
    QCOMPARE(engine.state(), pipeline::EngineState::Stopped);
    QCOMPARE(stats.lostByKind.otherSender, std::uint64_t{4});
    QCOMPARE(stats.lost, std::uint64_t{0});  // not this stream's frames: no gap
    QVERIFY2(stats.sourceStatus.find("4 frames from a second sender left out") != std::string::npos,
             stats.sourceStatus.c_str());
    QCOMPARE(acquire::lostFrameLines(stats.lostByKind),
             std::vector<std::string>{"left out 4 frames from a second sender (one sender "
                                      "streams at a time; the first kept on)"});
    const std::vector<std::uint64_t> sequences = imaging.imaged();
    for (std::size_t k = 0; k < sequences.size(); ++k) {
      QCOMPARE(sequences[k], std::uint64_t{k});  // only the first sender's, none lost
    }
  }
};

QTEST_GUILESS_MAIN(TestNetworkStream)
#include "test_network_stream.moc"

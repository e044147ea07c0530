// A network stream imaged by the command line (cineflow --headless --input zmq:...) from the real
// sender, tools/send_frames.py (support/stream_sender.hpp): a run without --frames ends with the
// sender's "end", its output complete; frames that did not arrive are said, one line per kind,
// and --frames counts frames imaged, not sequence numbers; and a stream whose header does not
// state its band has it measured from its first frame, as the recording it was sent from has, so
// both image alike. The recordings are written with the plain HDF5 API (support/
// rf_file_fixture.hpp); the one without a band holds seeded echoes (a band to measure).
#include <QtTest>

#include <QTemporaryDir>

#include <hdf5.h>
#include <algorithm>
#include <cmath>
#include <random>

#include "registry/source_factory.hpp"
#include "support/plain_hdf5.hpp"
#include "support/rf_file_fixture.hpp"
#include "support/run_app.hpp"
#include "support/stream_sender.hpp"
#include "ultrasound/ultrasound_source.hpp"

using namespace cineflow;
using test::freePort;
using test::Sender;

namespace {

// Long enough for any machine; a run that waits for a sender that finished never ends, and this
// turns that into a failure.
constexpr int kRunLimitMs = 120000;

QStringList headless(int port, const QString& output, const QStringList& more = {}) {
  return QStringList{"--headless", "--input", "zmq:" + test::loopback(port), "--backend", "cpu",
                     "--output",   output} +
         more;
}

QString said(const test::AppRun& run) {
  return QString("exit %1\n%2\n%3").arg(run.exitCode).arg(run.out, run.err);
}

std::uint64_t framesIn(const QString& output) {
  const test::PlainFile file(output.toStdString());
  return file.id < 0 ? 0 : test::shapeOf(file.id, "/bmode_db").at(0);
}

std::vector<float> bmodeOf(const QString& output) {
  const test::PlainFile file(output.toStdString());
  return file.id < 0 ? std::vector<float>{}
                     : test::readAll<float>(file.id, "/bmode_db", H5T_NATIVE_FLOAT);
}

// Replaces `spec`'s recording at `path`'s samples by echoes: in every row, a few Gaussian pulses
// at f0 (about 50 % -6 dB band) at seeded delays and amplitudes over seeded noise.
void writeEchoes(const std::string& path, const test::RfFileSpec& spec) {
  std::mt19937_64 random(spec.seed + 1);
  std::uniform_real_distribution<double> delay(16, spec.samples - 16), amplitude(2000, 9000);
  std::normal_distribution<double> noise(0, 30);
  const double sigma = 4;  // samples of the envelope exp(-(n/sigma)^2): 0.2 us at 20 MHz
  std::vector<std::int16_t> samples(static_cast<std::size_t>(spec.frames) * spec.transmits *
                                    spec.elements * spec.samples);
  for (std::size_t row = 0; row < samples.size() / spec.samples; ++row) {
    double values[4][2];
    for (auto& echo : values) {
      echo[0] = delay(random);
      echo[1] = amplitude(random);
    }
    for (int n = 0; n < spec.samples; ++n) {
      double v = noise(random);
      for (const auto& echo : values) {
        const double t = n - echo[0];
        v += echo[1] * std::exp(-(t / sigma) * (t / sigma)) *
             std::cos(2 * M_PI * spec.f0 / spec.fs * t);
      }
      samples[row * spec.samples + n] = static_cast<std::int16_t>(std::lround(v));
    }
  }
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  const hid_t rf = H5Dopen2(file, "/rf", H5P_DEFAULT);
  const herr_t written =
      H5Dwrite(rf, H5T_NATIVE_INT16, H5S_ALL, H5S_ALL, H5P_DEFAULT, samples.data());
  H5Dclose(rf);
  H5Fclose(file);
  QVERIFY(written >= 0);
}

}  // namespace

class TestNetworkHeadless : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;
  QString recording_;  // states its band (60 %)
  QString echoes_;     // does not: measured from its first frame's echoes

 private slots:
  void initTestCase() {
    if (const QString why = test::senderUnavailable(); !why.isEmpty()) {
      QSKIP(qPrintable(why));
    }
    QVERIFY(dir_.isValid());
    test::RfFileSpec spec;
    spec.frames = 5;
    spec.transmits = 3;
    spec.elements = 32;
    spec.samples = 256;
    spec.seed = 2113;
    recording_ = dir_.filePath("stream.h5");
    test::writeRfFile(recording_.toStdString(), spec);
    spec.frames = 3;
    spec.fractionalBandwidthPercent = -1;  // attribute omitted
    echoes_ = dir_.filePath("echoes.h5");
    test::writeRfFile(echoes_.toStdString(), spec);
    writeEchoes(echoes_.toStdString(), spec);
  }

  void aRunWithoutFramesEndsWithTheSender() {
    const int port = freePort();
    Sender sender(recording_, port, {"--rate", "0", "--block", "--frames", "7"});
    const QString output = dir_.filePath("ended.h5");
    const test::AppRun run = test::runApp(headless(port, output), kRunLimitMs);
    QVERIFY2(run.exitCode == 0, qPrintable(said(run)));
    QVERIFY2(run.out.contains("wrote 7 frames"), qPrintable(said(run)));
    QCOMPARE(framesIn(output), std::uint64_t{7});
    QVERIFY2(!run.out.contains("lost") && !run.out.contains("left out"), qPrintable(said(run)));
    QVERIFY(sender.finishedWell());
  }

  void framesThatDidNotArriveAreSaidAndFramesCountsFramesImaged() {
    const int port = freePort();
    // Sequence numbers 0-9: 2 and 3 never sent, 5 one sample short.
    Sender sender(recording_, port,
                  {"--rate", "0", "--block", "--frames", "10", "--skip", "2", "--skip", "3",
                   "--truncate", "5"});
    const QString output = dir_.filePath("lossy.h5");
    const test::AppRun run = test::runApp(headless(port, output, {"--frames", "6"}), kRunLimitMs);
    QVERIFY2(run.exitCode == 0, qPrintable(said(run)));
    QCOMPARE(framesIn(output), std::uint64_t{6});  // 0, 1, 4, 6, 7, 8
    QVERIFY2(run.out.contains("lost 2 frames: gaps in the sender's sequence numbers"),
             qPrintable(said(run)));
    QVERIFY2(run.out.contains("lost 1 frame: truncated (their bytes were not the header's "
                              "frame_bytes)"),
             qPrintable(said(run)));
    QVERIFY2(!run.out.contains("second sender"), qPrintable(said(run)));
  }

  void aStreamWithoutItsBandImagesAsItsRecording() {
    // The band measured the same way from the same first frame.
    const std::unique_ptr<acquire::FrameSource> file = acquire::openSource(echoes_.toStdString());
    const acquire::AcquisitionParams& fileAcq = ultrasound::asUltrasound(file.get())->params();
    QVERIFY(fileAcq.bandwidthMeasured);
    {
      const int port = freePort();
      Sender sender(echoes_, port, {"--rate", "0", "--block", "--frames", "1"});
      const std::unique_ptr<acquire::FrameSource> stream = test::openStream(port);
      const acquire::AcquisitionParams& streamAcq =
          ultrasound::asUltrasound(stream.get())->params();
      QVERIFY(streamAcq.bandwidthMeasured);
      QCOMPARE(streamAcq.fractionalBandwidth, fileAcq.fractionalBandwidth);
    }
    // And the images: the file's three frames, and the same three sent over the network.
    const QString fromFile = dir_.filePath("echoes-file.h5");
    const test::AppRun fileRun = test::runApp(
        {"--headless", "--input", echoes_, "--backend", "cpu", "--output", fromFile}, kRunLimitMs);
    QVERIFY2(fileRun.exitCode == 0, qPrintable(said(fileRun)));
    const int port = freePort();
    Sender sender(echoes_, port, {"--rate", "0", "--block", "--frames", "3"});
    const QString fromStream = dir_.filePath("echoes-stream.h5");
    const test::AppRun streamRun = test::runApp(headless(port, fromStream), kRunLimitMs);
    QVERIFY2(streamRun.exitCode == 0, qPrintable(said(streamRun)));
    const std::vector<float> a = bmodeOf(fromFile);
    const std::vector<float> b = bmodeOf(fromStream);
    QVERIFY(!a.empty());
    QCOMPARE(b.size(), a.size());
    double worst = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      worst = std::max(worst, std::abs(static_cast<double>(a[i]) - b[i]));
    }
    // The same bytes through the same chain configured from the same parameters: only float
    // rounding may differ (none on the CPU backend in practice), where a band that falls back to
    // the default instead of the measured one moves pixels by tens of dB.
    QVERIFY2(worst <= 1e-3, qPrintable(QString("largest difference %1 dB").arg(worst)));
  }
};

QTEST_GUILESS_MAIN(TestNetworkHeadless)
#include "test_network_headless.moc"

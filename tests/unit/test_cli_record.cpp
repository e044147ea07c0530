// `cineflow --headless --record`: every raw frame recorded (compressed by default) and replayed
// bit exact; a recording killed mid-way (SIGKILL: no clean-up at all) still opens, as an
// interrupted recording of the frames written before the kill; an existing file is never
// overwritten; bad options are command-line errors.

#include <QProcess>
#include <QtTest>

#include <filesystem>
#include <string>
#include <vector>

#include "oct/oct_simulator.hpp"
#include "registry/source_factory.hpp"
#include "support/plain_hdf5.hpp"
#include "support/recording_fixtures.hpp"
#include "support/run_app.hpp"
#include "support/test_paths.hpp"

using namespace cineflow;

namespace {

using Run = cineflow::test::AppRun;
using cineflow::test::runApp;

// Recorded frame i is the simulator's frame i mod its B-scans per volume.
void expectSimulatorFrames(const std::string& path, std::uint64_t frames) {
  const auto replay = acquire::openSource(path);
  QVERIFY(replay->frameCount() >= frames);
  oct::OctSimulator simulator;  // what `--input oct-sim` opens
  std::vector<std::byte> recorded(replay->frameBytes()), simulated(simulator.frameBytes());
  QCOMPARE(recorded.size(), simulated.size());
  for (std::uint64_t i = 0; i < frames; ++i) {
    acquire::SliceInfo slice;
    replay->readFrame(i, recorded, slice);
    simulator.readFrame(i % simulator.frameCount(), simulated, slice);
    QVERIFY2(recorded == simulated, qPrintable(QStringLiteral("frame %1").arg(i)));
  }
}

}  // namespace

class TestCliRecord : public QObject {
  Q_OBJECT

 private slots:
  void headlessRecordsEveryFrame() {
    QTemporaryDir dir;
    const QString path = dir.filePath("oct.h5");
    // Without HDF5's filter plugins, as on a machine that has none: Cineflow writes and reads its
    // recordings itself. (Debian's bitshuffle plugin, once loaded, leaves 8 bytes that the
    // AddressSanitizer build would report as this program's leak when HDF5 unloads it at exit.)
    const QString noPlugins = dir.filePath("no-plugins");
    QVERIFY(QDir().mkpath(noPlugins));
    const Run run = runApp({"--headless", "--input", "oct-sim", "--record", path, "--frames", "36",
                            "--backend", "cpu"},
                           280000, {"HDF5_PLUGIN_PATH=" + noPlugins});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    QVERIFY2(run.out.contains("recorded 36 raw frames") && run.out.contains("bitshuffle-lz4"),
             qPrintable(run.out));
    expectSimulatorFrames(path.toStdString(), 36);
    const test::PlainFile file(path.toStdString());
    QCOMPARE(test::readString(file.id, "schema"), std::string("cineflow.oct/1"));
    QCOMPARE(test::readDouble(file.id, "recording_complete"), 1.0);

    // Never over an existing file.
    const Run again = runApp({"--headless", "--input", "oct-sim", "--record", path, "--frames", "2",
                              "--backend", "cpu"});
    QCOMPARE(again.exitCode, 1);
    QVERIFY2(again.err.contains("the file exists"), qPrintable(again.err));
  }

  void aBlockSizeIsARecordingOption() {
    // Blocks of 2 KiB: the recording replays bit for bit and says what it was written with.
    QTemporaryDir dir;
    const QString path = dir.filePath("blocks.h5");
    const Run run = runApp({"--headless", "--input", "oct-sim", "--record", path, "--frames", "4",
                            "--record-block-size", "2048", "--backend", "cpu"});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    expectSimulatorFrames(path.toStdString(), 4);
    const test::PlainFile file(path.toStdString());
    QCOMPARE(test::readDouble(file.id, "recording_block_bytes"), 2048.0);
  }

  void aKilledRecordingStillOpens() {
    QTemporaryDir dir;
    const QString path = dir.filePath("killed.h5");
    QProcess process;
    process.start(QString::fromStdString(test::appPath()),
                  {"--headless", "--input", "oct-sim", "--record", path, "--frames", "1000000",
                   "--backend", "cpu"});
    QVERIFY(process.waitForStarted());
    // Some frames on disk (a compressed B-scan is about 1.3 MB), then SIGKILL: nothing of
    // Cineflow's runs after it.
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(path).size() > 12'000'000, 120'000);
    process.kill();
    QVERIFY(process.waitForFinished());
    const auto replay = acquire::openSource(path.toStdString());
    qInfo("%s", replay->describe().c_str());
    QVERIFY2(replay->describe().find("an interrupted recording") != std::string::npos,
             replay->describe().c_str());
    QVERIFY(replay->frameCount() >= 2);
    expectSimulatorFrames(path.toStdString(), replay->frameCount());
  }

  void aDamagedFrameStopsTheReplayOrIsSkipped() {
    QTemporaryDir dir;
    const QString path = dir.filePath("lz4.h5");
    const QString noPlugins = dir.filePath("no-plugins");  // as above
    QVERIFY(QDir().mkpath(noPlugins));
    const QStringList env{"HDF5_PLUGIN_PATH=" + noPlugins};
    Run run = runApp({"--headless", "--input", "oct-sim", "--record", path, "--record-compression",
                      "lz4", "--frames", "5", "--backend", "cpu"},
                     280000, env);
    QVERIFY2(run.exitCode == 0 && run.out.contains("recorded 5 raw frames"),
             qPrintable(run.err + run.out));
    expectSimulatorFrames(path.toStdString(), 5);
    QVERIFY(test::damageChunk(path.toStdString(), "spectra", 3, false));
    // Stop (the default): the frame is named, and what to do.
    run = runApp(
        {"--headless", "--input", path, "--output", dir.filePath("a.h5"), "--backend", "cpu"},
        280000, env);
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains("reading frame 3") && run.err.contains("skip damaged frames"),
             qPrintable(run.err));
    // Skip: the other four imaged, the damaged one counted and named.
    run = runApp({"--headless", "--input", path, "--output", dir.filePath("b.h5"), "--backend",
                  "cpu", "--on-damaged-frame", "skip"},
                 280000, env);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    QVERIFY2(run.out.contains("skipped 1 damaged frames") && run.out.contains("reading frame 3") &&
                 run.out.contains("wrote 4 frames"),
             qPrintable(run.out));
  }

  void badRecordOptionsAreCommandLineErrors() {
    for (const QStringList& args :
         {QStringList{"--input", "oct-sim", "--record", "r.h5"},
          QStringList{"--headless", "--record", "r.h5", "--record-compression", "zip"},
          QStringList{"--headless", "--input", "sim", "--output", "o.h5", "--on-damaged-frame",
                      "maybe"},
          QStringList{"--headless", "--input", "oct-sim", "--record", "r.h5", "--record-block-size",
                      "512"},
          QStringList{"--headless", "--input", "oct-sim", "--output", "o.h5", "--record-block-size",
                      "4096"},  // nothing recorded
          QStringList{"--headless", "--input", "oct-sim", "--record", "r.h5",
                      "--record-compression", "none", "--record-block-size", "4096"}}) {
      const Run run = runApp(args);
      QVERIFY2(run.exitCode == 2, qPrintable(args.join(' ') + ": " + run.err));
    }
  }
};

QTEST_GUILESS_MAIN(TestCliRecord)
#include "test_cli_record.moc"

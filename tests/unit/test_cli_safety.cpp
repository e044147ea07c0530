// Nothing lost, nothing crashes: the cineflow executable run the ways a user, a peer's file or a
// machine can run it, beyond the developer's own set-up:
//   - a CPU backend of one thread (CINEFLOW_THREADS=1, or a machine reporting one core) images
//     OCT and ultrasound to the end; a CINEFLOW_THREADS that is not a number is said and ignored;
//   - a recording whose bitshuffle-LZ4 chunks have blocks of any size a peer's encoder writes
//     (8, 64, 4096 or 65536 elements) replays headless into an output file, to the very images of
//     the uncompressed recording, however many frames the run takes;
//   - a raw recording of the simulator's sweep keeps each slice's elevation, and its replay puts
//     the slices where they were acquired;
//   - Ctrl-C or SIGTERM mid-run keeps the frames processed so far in the output, marked
//     incomplete, and the exit status says which signal ended it; stale temporaries of runs that
//     died are removed by the next run writing into their folder;
//   - --output, --report and --trace are checked before the run: a folder, a missing folder or a
//     file that is not an earlier output is refused at once (exit 2), and nothing is overwritten;
//   - check-file --help helps; bad values of known options exit 2; progress written to a stderr
//     that is not a terminal never rewrites itself.
#include <hdf5.h>

#include <signal.h>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "process/bitshuffle_lz4.hpp"
#include "support/plain_hdf5.hpp"
#include "support/rf_file_fixture.hpp"
#include "support/run_app.hpp"
#include "support/test_paths.hpp"

namespace {

using Run = cineflow::test::AppRun;
using cineflow::test::runApp;

// A hang becomes a failure after this long (CTest's timeout is the real limit).
constexpr int kHangMs = 120000;

// Copies the cineflow.rf/1 recording `plain` to `packed` with /rf stored one frame per chunk in
// bitshuffle-LZ4 (HDF5 filter 32008) with blocks of `blockElements` int16 samples, written as
// another program's encoder would (direct chunk writes; the filter marked optional, so that no
// plugin is needed to write it).
// `compression`: the filter's compression option (2 LZ4, 3 zstd: then nothing is decodable, and
// the chunks are written as for LZ4). `type`: /rf's type (another than int16: no chunks written).
void packRecording(const std::string& plain, const std::string& packed, unsigned blockElements,
                   unsigned compression = cineflow::process::kBitshuffleLz4,
                   hid_t type = H5T_STD_I16LE) {
  const hid_t in = H5Fopen(plain.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  QVERIFY(in >= 0);
  const hid_t out = H5Fcreate(packed.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  QVERIFY(out >= 0);
  // Everything but /rf as it is (attributes of the root included).
  H5Ocopy(in, "angles_rad", out, "angles_rad", H5P_DEFAULT, H5P_DEFAULT);
  H5Ocopy(in, "element_x_m", out, "element_x_m", H5P_DEFAULT, H5P_DEFAULT);
  if (H5Lexists(in, "elevation_m", H5P_DEFAULT) > 0) {
    H5Ocopy(in, "elevation_m", out, "elevation_m", H5P_DEFAULT, H5P_DEFAULT);
  }
  const std::vector<hsize_t> dims = cineflow::test::shapeOf(in, "/rf");
  QCOMPARE(dims.size(), std::size_t(4));
  const std::vector<std::int16_t> samples =
      cineflow::test::readAll<std::int16_t>(in, "/rf", H5T_NATIVE_INT16);
  QVERIFY(!samples.empty());
  const hid_t space = H5Screate_simple(4, dims.data(), nullptr);
  const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  const hsize_t chunk[4] = {1, dims[1], dims[2], dims[3]};
  H5Pset_chunk(dcpl, 4, chunk);
  // With the bitshuffle plugin installed HDF5 completes the first three values itself (its
  // set_local step) from the two given; without it the whole set is stored, as h5py writes it.
  const bool plugin = H5Zfilter_avail(cineflow::process::kBitshuffleFilterId) > 0;
  const unsigned given[2] = {blockElements, compression};
  const unsigned full[5] = {0, 3, 2, blockElements, compression};
  QVERIFY(H5Pset_filter(dcpl, cineflow::process::kBitshuffleFilterId, H5Z_FLAG_OPTIONAL,
                        plugin ? 2 : 5, plugin ? given : full) >= 0);
  const hid_t rf = H5Dcreate2(out, "rf", type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  QVERIFY(rf >= 0);
  const std::size_t frameSamples = static_cast<std::size_t>(dims[1] * dims[2] * dims[3]);
  std::vector<std::byte> stored;
  for (hsize_t f = 0; f < dims[0] && H5Tequal(type, H5T_STD_I16LE) > 0; ++f) {
    const auto* frame = reinterpret_cast<const std::byte*>(samples.data() + f * frameSamples);
    const std::size_t bytes = cineflow::process::encodeBitshuffleLz4(
        {frame, frameSamples * sizeof(std::int16_t)}, sizeof(std::int16_t), stored, blockElements);
    const hsize_t offset[4] = {f, 0, 0, 0};
    QVERIFY(H5Dwrite_chunk(rf, H5P_DEFAULT, 0, offset, bytes, stored.data()) >= 0);
  }
  // The acquisition attributes live on /rf in the shipped files: copy them across.
  const hid_t rfIn = H5Dopen2(in, "/rf", H5P_DEFAULT);
  H5Aiterate2(
      rfIn, H5_INDEX_NAME, H5_ITER_INC, nullptr,
      [](hid_t source, const char* name, const H5A_info_t*, void* target) -> herr_t {
        const hid_t attribute = H5Aopen(source, name, H5P_DEFAULT);
        const hid_t valueType = H5Aget_type(attribute);
        const hid_t attributeSpace = H5Aget_space(attribute);
        std::vector<std::byte> value(
            H5Tget_size(valueType) *
            static_cast<std::size_t>(H5Sget_simple_extent_npoints(attributeSpace)));
        H5Aread(attribute, valueType, value.data());
        const hid_t copy = H5Acreate2(*static_cast<hid_t*>(target), name, valueType, attributeSpace,
                                      H5P_DEFAULT, H5P_DEFAULT);
        H5Awrite(copy, valueType, value.data());
        H5Aclose(copy);
        H5Sclose(attributeSpace);
        H5Tclose(valueType);
        H5Aclose(attribute);
        return 0;
      },
      const_cast<hid_t*>(&rf));
  H5Dclose(rfIn);
  H5Dclose(rf);
  H5Pclose(dcpl);
  H5Sclose(space);
  H5Fclose(out);
  H5Fclose(in);
}

// The size of the largest "*.partial-*" file in `folder` (0 when none).
qint64 largestPartial(const QString& folder) {
  qint64 largest = 0;
  for (const QFileInfo& entry : QDir(folder).entryInfoList({"*.partial-*"}, QDir::Files)) {
    largest = std::max(largest, entry.size());
  }
  return largest;
}

std::vector<double> doublesOf(const QString& path, const char* dataset) {
  cineflow::test::PlainFile file(path.toStdString());
  if (file.id < 0 || H5Lexists(file.id, dataset, H5P_DEFAULT) <= 0) {
    return {};
  }
  return cineflow::test::readAll<double>(file.id, dataset, H5T_NATIVE_DOUBLE);
}

std::vector<float> bmodeOf(const QString& path) {
  cineflow::test::PlainFile file(path.toStdString());
  if (file.id < 0) {
    return {};
  }
  return cineflow::test::readAll<float>(file.id, "/bmode_db", H5T_NATIVE_FLOAT);
}

}  // namespace

class TestCliSafety : public QObject {
  Q_OBJECT

 private slots:
  void oneThreadImagesToTheEnd_data() {
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("threads");
    QTest::newRow("OCT, 1 thread") << "oct-sim"
                                   << "1";
    QTest::newRow("ultrasound, 1 thread") << "sim"
                                          << "1";
    QTest::newRow("OCT, CINEFLOW_THREADS=abc") << "oct-sim"
                                               << "abc";
  }

  // Found from outside: OCT's mean spectrum summed into stack scratch sized by its grain, while
  // a pool of one thread handed the whole range to one call.
  void oneThreadImagesToTheEnd() {
    QFETCH(QString, input);
    QFETCH(QString, threads);
    QTemporaryDir dir;
    const QString out = dir.filePath("out.h5");
    const Run run = runApp(
        {"--headless", "--backend", "cpu", "--input", input, "--output", out, "--frames", "2"},
        kHangMs, {"CINEFLOW_THREADS=" + threads});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    QCOMPARE(bmodeOf(out).empty(), false);
    if (threads == "abc") {
      QVERIFY2(run.err.contains("CINEFLOW_THREADS=\"abc\" is not a number of threads"),
               qPrintable(run.err));
    } else {
      QVERIFY2(!run.err.contains("CINEFLOW_THREADS"), qPrintable(run.err));
    }
  }

  void peerBlockSizesReplayIntoAnOutput_data() {
    QTest::addColumn<unsigned>("blockElements");
    QTest::newRow("8 elements") << 8u;
    QTest::newRow("64 elements") << 64u;
    QTest::newRow("4096 elements (the encoders' default for int16)") << 4096u;
    QTest::newRow("65536 elements") << 65536u;
  }

  // Found from outside: blocks the staging path does not take went to the fallback read, and the
  // lossless output's admission counted that frame twice, so the replay stopped after about 17
  // frames. Here 40 frames of a 6-frame recording (it loops) must all arrive.
  void peerBlockSizesReplayIntoAnOutput() {
    QFETCH(unsigned, blockElements);
    QTemporaryDir dir;
    const std::string plain = dir.filePath("plain.h5").toStdString();
    const std::string packed = dir.filePath("packed.h5").toStdString();
    cineflow::test::RfFileSpec spec;
    spec.frames = 6;
    spec.transmits = 2;
    spec.elements = 32;
    spec.samples = 1024;
    spec.withElevation = false;
    spec.seed = 20261128;
    cineflow::test::writeRfFile(plain, spec);
    packRecording(plain, packed, blockElements);
    if (QTest::currentTestFailed()) {
      return;
    }
    // --no-tune: both runs on the same variants, so that their images may be compared bit for bit.
    QStringList imaging{"--headless", "--backend", "cpu",    "--no-tune",
                        "--frames",   "40",        "--grid", "-4:4:0.2,2:14:0.1"};
    const QString plainOut = dir.filePath("plain-out.h5");
    const QString packedOut = dir.filePath("packed-out.h5");
    const Run plainRun = runApp(
        imaging + QStringList{"--input", QString::fromStdString(plain), "--output", plainOut},
        kHangMs);
    QVERIFY2(plainRun.exitCode == 0, qPrintable(plainRun.err + plainRun.out));
    const Run packedRun = runApp(
        imaging + QStringList{"--input", QString::fromStdString(packed), "--output", packedOut},
        kHangMs);
    QVERIFY2(packedRun.exitCode == 0, qPrintable(packedRun.err + packedRun.out));
    const std::vector<float> expected = bmodeOf(plainOut);
    const std::vector<float> replayed = bmodeOf(packedOut);
    QVERIFY(!expected.empty());
    QCOMPARE(replayed.size(), expected.size());
    QVERIFY2(replayed == expected,
             "the packed recording's images equal the plain one's bit for bit");
  }

  // Found from outside: a raw recording of the sweep kept frames_per_volume but no elevations,
  // so its replay stacked every slice at y = 0.
  void aRecordingKeepsItsSlicesElevations() {
    QTemporaryDir dir;
    const QString recording = dir.filePath("sweep.h5");
    const Run record = runApp({"--headless", "--backend", "cpu", "--input", "sim", "--record",
                               recording, "--frames", "16", "--grid", "-4:4:0.4,10:20:0.2"},
                              kHangMs);
    QVERIFY2(record.exitCode == 0, qPrintable(record.err + record.out));
    const std::vector<double> recorded = doublesOf(recording, "/elevation_m");
    QCOMPARE(recorded.size(), std::size_t(16));
    // The simulator's sweep: 16 slices, evenly spaced, centred on 0 (a spread a collapse to
    // y = 0 cannot have).
    const auto [lo, hi] = std::minmax_element(recorded.begin(), recorded.end());
    QVERIFY2(*hi - *lo > 1e-3, qPrintable(QString("elevations span %1 m").arg(*hi - *lo)));
    const QString replayed = dir.filePath("replayed.h5");
    const Run replay = runApp({"--headless", "--backend", "cpu", "--input", recording, "--output",
                               replayed, "--grid", "-4:4:0.4,10:20:0.2"},
                              kHangMs);
    QVERIFY2(replay.exitCode == 0, qPrintable(replay.err + replay.out));
    QCOMPARE(doublesOf(replayed, "/elevation_m"), recorded);
  }

  void anInterruptKeepsWhatWasProcessed_data() {
    QTest::addColumn<int>("signal");
    QTest::newRow("Ctrl-C") << int(SIGINT);
    QTest::newRow("SIGTERM") << int(SIGTERM);
  }

  // Found from outside: Ctrl-C lost every processed frame and left out.h5.partial-PID behind.
  void anInterruptKeepsWhatWasProcessed() {
    QFETCH(int, signal);
    QTemporaryDir dir;
    const QString out = dir.filePath("out.h5");
    QProcess run;
    run.start(QString::fromStdString(cineflow::test::appPath()),
              {"--headless", "--backend", "cpu", "--input", "sim", "--output", out, "--frames",
               "1000000", "--grid", "-4:4:0.1,10:20:0.05"});
    QVERIFY(run.waitForStarted());
    // Frames reach the temporary file as they are processed (chunks of 81 x 201 floats, more
    // than HDF5 keeps cached): wait until a few are there.
    QTRY_VERIFY_WITH_TIMEOUT(
        largestPartial(dir.path()) > 4 * 81 * 201 * 4 || run.state() == QProcess::NotRunning,
        kHangMs);
    QCOMPARE(run.state(), QProcess::Running);
    QCOMPARE(::kill(static_cast<pid_t>(run.processId()), signal), 0);
    QVERIFY(run.waitForFinished(kHangMs));
    const QString err = QString::fromUtf8(run.readAllStandardError());
    QCOMPARE(run.exitStatus(), QProcess::NormalExit);
    QCOMPARE(run.exitCode(), 128 + signal);
    QVERIFY2(err.contains(signal == SIGINT ? "interrupted by SIGINT" : "interrupted by SIGTERM"),
             qPrintable(err));
    QVERIFY2(err.contains("keeps them, marked incomplete"), qPrintable(err));
    QCOMPARE(largestPartial(dir.path()), qint64(0));  // nothing left behind
    cineflow::test::PlainFile file(out.toStdString());
    QVERIFY2(file.id >= 0, "the output exists");
    QCOMPARE(cineflow::test::readDouble(file.id, "complete"), 0.0);
    QVERIFY(cineflow::test::readString(file.id, "incomplete_reason").find("interrupted") == 0);
    const std::vector<hsize_t> frames = cineflow::test::shapeOf(file.id, "/bmode_db");
    QVERIFY2(frames.size() == 3 && frames[0] >= 4, "the frames processed before the signal");
    QCOMPARE(cineflow::test::shapeOf(file.id, "/sequence")[0], frames[0]);
  }

  void aCompleteRunSaysSo() {
    QTemporaryDir dir;
    const QString out = dir.filePath("out.h5");
    const Run run = runApp({"--headless", "--backend", "cpu", "--input", "sim", "--output", out,
                            "--frames", "2", "--grid", "-4:4:0.4,10:20:0.2"},
                           kHangMs);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    cineflow::test::PlainFile file(out.toStdString());
    QCOMPARE(cineflow::test::readDouble(file.id, "complete"), 1.0);
  }

  void staleTemporariesAreRemoved() {
    QTemporaryDir dir;
    // A run that died (its pid is past any pid_max) and one still running (this test).
    const QString stale = dir.filePath("old.h5.partial-99999999");
    const QString live =
        dir.filePath(QString("other.h5.partial-%1").arg(QCoreApplication::applicationPid()));
    for (const QString& name : {stale, live}) {
      QFile f(name);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("half a file");
    }
    const Run run =
        runApp({"--headless", "--backend", "cpu", "--input", "sim", "--output",
                dir.filePath("out.h5"), "--frames", "1", "--grid", "-4:4:0.4,10:20:0.2"},
               kHangMs);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    QVERIFY(!QFile::exists(stale));
    QVERIFY(QFile::exists(live));
  }

  void outputsAreCheckedBeforeTheRun_data() {
    QTest::addColumn<QString>("option");
    QTest::addColumn<QString>("path");  // relative to a fresh folder; "DIR" is that folder
    QTest::addColumn<QString>("named");
    QTest::newRow("--output is a folder") << "--output"
                                          << "DIR"
                                          << "is a folder";
    QTest::newRow("--output in a missing folder") << "--output"
                                                  << "missing/out.h5"
                                                  << "does not exist";
    QTest::newRow("--output over someone's file") << "--output"
                                                  << "notes.txt"
                                                  << "is not a Cineflow B-mode output";
    QTest::newRow("--report in a missing folder") << "--report"
                                                  << "missing/r.json"
                                                  << "does not exist";
    QTest::newRow("--report is a folder") << "--report"
                                          << "DIR"
                                          << "is a folder";
    QTest::newRow("--trace in a missing folder") << "--trace"
                                                 << "missing/t.json"
                                                 << "does not exist";
  }

  // Found from outside: a bad --report failed after the whole run (exit 1, the output written),
  // and an --output naming someone else's file replaced it.
  void outputsAreCheckedBeforeTheRun() {
    QFETCH(QString, option);
    QFETCH(QString, path);
    QFETCH(QString, named);
    QTemporaryDir dir;
    const QString notes = dir.filePath("notes.txt");
    {
      QFile f(notes);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("a colleague's notes");
    }
    const QString target = path == "DIR" ? dir.path() : dir.filePath(path);
    QStringList args{"--headless", "--backend", "cpu",  "--input", "sim",
                     "--frames",   "1",         option, target};
    if (option != "--output") {
      args << "--output" << dir.filePath("out.h5");
    }
    const Run run = runApp(args, kHangMs);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(option) && run.err.contains(named), qPrintable(run.err));
    QVERIFY2(!run.out.contains("frames/s"), "refused before the run");
    QVERIFY(!QFile::exists(dir.filePath("out.h5")));
    QFile f(notes);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray("a colleague's notes"));
  }

  void anEarlierOutputIsReplaced() {
    QTemporaryDir dir;
    const QString out = dir.filePath("out.h5");
    for (int run = 0; run < 2; ++run) {
      const Run r = runApp({"--headless", "--backend", "cpu", "--input", "sim", "--output", out,
                            "--frames", QString::number(run + 1), "--grid", "-4:4:0.4,10:20:0.2"},
                           kHangMs);
      QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
    }
    cineflow::test::PlainFile file(out.toStdString());
    QCOMPARE(cineflow::test::shapeOf(file.id, "/bmode_db")[0], hsize_t(2));
  }

  // Found from outside: zstd chunks were refused with a message about LZ4 alone, and a /rf of
  // another element type was named only "string".
  void unreadableChunksAndTypesAreNamed() {
    QTemporaryDir dir;
    const std::string plain = dir.filePath("plain.h5").toStdString();
    cineflow::test::RfFileSpec spec;
    spec.withElevation = false;
    cineflow::test::writeRfFile(plain, spec);
    const std::string zstd = dir.filePath("zstd.h5").toStdString();
    packRecording(plain, zstd, 0, 3);
    const hid_t twoCharacters = H5Tcopy(H5T_C_S1);
    H5Tset_size(twoCharacters, 2);
    const std::string text = dir.filePath("text.h5").toStdString();
    packRecording(plain, text, 0, cineflow::process::kBitshuffleLz4, twoCharacters);
    H5Tclose(twoCharacters);
    const std::pair<std::string, QString> cases[] = {{zstd, "bitshuffle chunks with zstd"},
                                                     {text, "fixed-length string of 2 bytes"}};
    for (const auto& [file, named] : cases) {
      const Run run = runApp({"--headless", "--backend", "cpu", "--input",
                              QString::fromStdString(file), "--output", dir.filePath("o.h5")},
                             kHangMs);
      QCOMPARE(run.exitCode, 1);
      QVERIFY2(run.err.contains(named), qPrintable(run.err));
    }
  }

  // Found from outside: the first run of a new problem measured every variant, 2.7 s for a job of
  // 0.1 s. A run of a few frames starts at once on the default (or the history's) variants.
  void aShortRunDoesNotTune() {
    QTemporaryDir dir;
    const std::string recording = dir.filePath("one.h5").toStdString();
    cineflow::test::RfFileSpec spec;
    spec.frames = 2;
    spec.withElevation = false;
    cineflow::test::writeRfFile(recording, spec);
    const QStringList environment{"CINEFLOW_CACHE_DIR=" + dir.filePath("fresh-cache")};
    const QStringList args{
        "--headless", "--backend",         "cpu", "--input", QString::fromStdString(recording),
        "--output",   dir.filePath("o.h5")};
    const Run shortRun = runApp(args, kHangMs, environment);
    QVERIFY2(shortRun.exitCode == 0, qPrintable(shortRun.err + shortRun.out));
    QVERIFY2(shortRun.out.contains("variant ") && !shortRun.out.contains("(measured"),
             qPrintable(shortRun.out));
    // A long run (past the payback) measures.
    const Run longRun = runApp(args + QStringList{"--frames", "300"}, kHangMs, environment);
    QVERIFY2(longRun.exitCode == 0, qPrintable(longRun.err + longRun.out));
    QVERIFY2(longRun.out.contains("(measured"), qPrintable(longRun.out));
  }

  // Found from outside: Doppler with the default ensemble (16) on a recording of 8 frames wrote
  // maps of NaN and exited 0.
  void aDopplerEnsembleLongerThanTheRecordingIsRefused() {
    QTemporaryDir dir;
    const std::string recording = dir.filePath("short.h5").toStdString();
    cineflow::test::RfFileSpec spec;
    spec.frames = 8;
    spec.withElevation = false;
    cineflow::test::writeRfFile(recording, spec);
    const QStringList doppler{
        "--headless", "--backend",          "cpu",    "--input", QString::fromStdString(recording),
        "--output",   dir.filePath("o.h5"), "--mode", "doppler", "--prf",
        "4000"};
    const Run tooLong = runApp(doppler, kHangMs);
    QCOMPARE(tooLong.exitCode, 2);
    QVERIFY2(
        tooLong.err.contains("ensemble is 16 frames") && tooLong.err.contains("holds 8 frames"),
        qPrintable(tooLong.err));
    QVERIFY(!QFile::exists(dir.filePath("o.h5")));
    const Run tooFew = runApp(doppler + QStringList{"--ensemble", "6", "--frames", "4"}, kHangMs);
    QCOMPARE(tooFew.exitCode, 2);
    QVERIFY2(tooFew.err.contains("fewer than one Doppler ensemble of 6"), qPrintable(tooFew.err));
    const Run fits = runApp(doppler + QStringList{"--ensemble", "6"}, kHangMs);
    QVERIFY2(fits.exitCode == 0, qPrintable(fits.err + fits.out));
  }

  // Found from outside: in block mode (ensemble 6 over 12 frames) frames 7-11 repeated frame 6's
  // estimate with nothing to tell them apart, so an average over frames counted it six times.
  // /flow_fresh marks the frames whose flow layers hold an estimate made at that frame.
  // The built-in flow simulator: its flow differs from ensemble to ensemble.
  void dopplerFramesSayWhichCarryAFreshEstimate() {
    QTemporaryDir dir;
    for (const QString& mode : {QStringLiteral("block"), QStringLiteral("sliding")}) {
      const QString output = dir.filePath(mode + ".h5");
      const Run run = runApp(
          {"--headless", "--backend", "cpu", "--no-tune", "--input", "sim-flow", "--output", output,
           "--mode", "doppler", "--frames", "12", "--ensemble", "6", "--ensemble-mode", mode},
          kHangMs);
      QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
      const cineflow::test::PlainFile file(output.toStdString());
      QVERIFY(file.id >= 0);
      const auto fresh =
          cineflow::test::readAll<std::uint8_t>(file.id, "/flow_fresh", H5T_NATIVE_UINT8);
      QCOMPARE(fresh.size(), std::size_t{12});
      // The first estimate needs 6 frames; block mode estimates every 6th frame, sliding mode
      // at every frame from then on.
      for (std::size_t f = 0; f < fresh.size(); ++f) {
        const bool due = f >= 5 && (mode == "sliding" || (f + 1) % 6 == 0);
        QVERIFY2(fresh[f] == (due ? 1 : 0), qPrintable(mode + ": frame " + QString::number(f) +
                                                       " fresh " + QString::number(fresh[f])));
      }
      if (mode == "block") {
        // What the 0s mean: the velocity of frames 7-11 (index 6-10) is frame 6's (index 5).
        const auto velocity =
            cineflow::test::readAll<float>(file.id, "/velocity_m_s", H5T_NATIVE_FLOAT);
        const std::size_t pixels = velocity.size() / 12;
        const auto frame = [&](std::size_t f) {
          return std::vector<float>(
              velocity.begin() + static_cast<std::ptrdiff_t>(f * pixels),
              velocity.begin() + static_cast<std::ptrdiff_t>((f + 1) * pixels));
        };
        const auto equalWithNaN = [](const std::vector<float>& a, const std::vector<float>& b) {
          return std::equal(a.begin(), a.end(), b.begin(), [](float x, float y) {
            return x == y || (std::isnan(x) && std::isnan(y));
          });
        };
        const std::vector<float> first = frame(5);
        QVERIFY(std::any_of(first.begin(), first.end(),
                            [](float v) { return v != 0 && !std::isnan(v); }));
        QVERIFY(equalWithNaN(frame(10), first));
        QVERIFY(!equalWithNaN(frame(11), first));
      }
    }
  }

  // Found from outside: RF mode on 0.1 mm depth steps at 3.5 MHz aliased the envelope (points
  // 0.14-0.16 mm off, cysts 5-11 dB less contrast than I/Q) without a word.
  void aDepthStepTooCoarseForRfIsSaid() {
    QTemporaryDir dir;
    const std::string recording = dir.filePath("rf.h5").toStdString();
    cineflow::test::RfFileSpec spec;  // f0 5 MHz, 60 % band: up to 6.5 MHz, steps of 0.059 mm
    spec.frames = 1;
    spec.withElevation = false;
    cineflow::test::writeRfFile(recording, spec);
    const QStringList args{"--headless", "--backend",         "cpu",
                           "--no-tune",  "--input",           QString::fromStdString(recording),
                           "--output",   dir.filePath("o.h5")};
    const Run coarse = runApp(args + QStringList{"--grid", "-4:4:0.2,2:8:0.1"}, kHangMs);
    QVERIFY2(coarse.exitCode == 0, qPrintable(coarse.err));
    QVERIFY2(coarse.err.contains("depth step of 0.100 mm aliases") &&
                 coarse.err.contains("at most 0.059 mm"),
             qPrintable(coarse.err));
    const Run fine = runApp(args + QStringList{"--grid", "-4:4:0.2,2:8:0.05"}, kHangMs);
    QVERIFY2(fine.exitCode == 0, qPrintable(fine.err));
    QVERIFY2(!fine.err.contains("aliases"), qPrintable(fine.err));
    const Run iq =
        runApp(args + QStringList{"--grid", "-4:4:0.2,2:8:0.1", "--mode", "iq"}, kHangMs);
    QVERIFY2(iq.exitCode == 0, qPrintable(iq.err));
    QVERIFY2(!iq.err.contains("aliases"), qPrintable(iq.err));
  }

  void smallerCommandLineDefects() {
    const Run help = runApp({"check-file", "--help"}, kHangMs);
    QCOMPARE(help.exitCode, 0);
    QVERIFY2(help.out.contains("usage: cineflow check-file PATH"), qPrintable(help.out + help.err));
    for (const QStringList& bad :
         {QStringList{"--headless", "--input", "sim", "--policy", "sometimes"},
          QStringList{"--headless", "--input", "sim", "--backend", "quantum"},
          QStringList{"--headless", "--input", "sim", "--grid", "-4:4:0.4,20:10:0.2"},
          QStringList{"--headless", "--input", "sim", "--on-damaged-frame", "ignore"}}) {
      const Run run = runApp(bad, kHangMs);
      QVERIFY2(run.exitCode == 2, qPrintable(bad.join(' ') + ": exit " +
                                             QString::number(run.exitCode) + ": " + run.err));
    }
    // stderr here is a pipe: the opening progress comes as whole lines, never "\r".
    QTemporaryDir dir;
    const Run run = runApp({"--headless", "--backend", "cpu", "--input", "sim", "--output",
                            dir.filePath("o.h5"), "--frames", "1", "--grid", "-4:4:0.4,10:20:0.2"},
                           kHangMs);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(!run.err.contains('\r'), qPrintable(run.err));
  }
};

QTEST_GUILESS_MAIN(TestCliSafety)
#include "test_cli_safety.moc"

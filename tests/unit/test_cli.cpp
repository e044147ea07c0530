// The cineflow executable's command line and headless mode, run as a user runs them; and the
// argument reader that cineflow, bench and convert share (app/arg_reader.hpp): an option's value
// after a space (negative numbers included) or an '=', a flag given a value refused, "--" ending
// the options.
#include <hdf5.h>

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "arg_reader.hpp"
#include "support/plain_hdf5.hpp"
#include "support/run_app.hpp"
#include "support/test_paths.hpp"

namespace {

using Run = cineflow::test::AppRun;
using cineflow::test::runApp;

// What an ArgReader makes of `args` with the options --input and --frames (number) and the flag
// --headless: one line per argument ("flag headless", "input=VALUE", "frames=N", "file NAME"), or
// "error: MESSAGE".
QStringList readArguments(std::vector<std::string> args) {
  std::vector<char*> argv{const_cast<char*>("cineflow")};
  for (std::string& arg : args) {
    argv.push_back(arg.data());
  }
  QStringList read;
  try {
    cineflow::app::ArgReader reader(static_cast<int>(argv.size()), argv.data(), 1, "test: ");
    while (reader.next()) {
      if (reader.flag("--headless")) {
        read << "flag headless";
      } else if (reader.option("--input")) {
        read << QString::fromStdString("input=" + reader.value());
      } else if (reader.option("--frames")) {
        read << QString("frames=%1").arg(reader.number<int>());
      } else if (reader.positional()) {
        read << QString::fromStdString("file " + std::string(reader.current()));
      } else {
        reader.rejectUnknown("see --help");
      }
    }
  } catch (const std::invalid_argument& e) {
    read << QString("error: ") + e.what();
  }
  return read;
}

}  // namespace

class TestCli : public QObject {
  Q_OBJECT

 private slots:
  void helpDocumentsEveryOption() {
    const Run run = runApp({"--help"});
    QCOMPARE(run.exitCode, 0);
    for (const char* option : {"--headless",    "--input",           "--output",
                               "--grid",        "--fnumber",         "--apodisation",
                               "--mode",        "--iq-bandwidth",    "--iq-decimation",
                               "--prf",         "--ensemble",        "--ensemble-mode",
                               "--wall-filter", "--doppler-average", "--colour-box",
                               "sim-flow",      "--backend",         "--frames",
                               "--policy",      "--screenshot"}) {
      QVERIFY2(run.out.contains(option), option);
    }
  }

  void badCommandLinesExitNonZeroWithAMessage() {
    const QList<QStringList> cases = {{"--frobnicate"},
                                      {"--headless"},
                                      {"--headless", "--output", "x.h5", "--frames", "ten"},
                                      {"--headless", "--output", "x.h5", "--fnumber"},
                                      {"--headless", "--output", "x.h5", "--mode", "xy"},
                                      {"--headless", "--output", "x.h5", "--apodisation", "x"},
                                      {"--headless", "--output", "x.h5", "--iq-decimation", "2x"},
                                      {"--headless", "--output", "x.h5", "--iq-bandwidth", "wide"},
                                      {"--mode", "iq"},
                                      {"--iq-bandwidth", "50"},
                                      {"--grid", "-5:5:0.1,5:30:0.05"},
                                      {"--grid=-5:5:0.1,5:30:0.05"},
                                      {"--headless", "--output=x.h5", "--frames=ten"},
                                      {"--frobnicate=1"}};
    for (const QStringList& args : cases) {
      const Run run = runApp(args);
      QCOMPARE(run.exitCode, 2);
      QVERIFY2(run.err.startsWith("cineflow: "), qPrintable(run.err));
    }
  }

  void argumentReaderFollowsTheConventions_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QStringList>("read");
    QTest::newRow("value after a space")
        << QStringList{"--input", "sim"} << QStringList{"input=sim"};
    QTest::newRow("value after '='") << QStringList{"--input=sim"} << QStringList{"input=sim"};
    QTest::newRow("'=' inside the value")
        << QStringList{"--input=a=b.h5"} << QStringList{"input=a=b.h5"};
    QTest::newRow("empty value") << QStringList{"--input="}
                                 << QStringList{"error: test: --input needs a value"};
    QTest::newRow("negative value after a space")
        << QStringList{"--input", "-15:15:0.1,5:45:0.1", "--frames", "-3"}
        << QStringList{"input=-15:15:0.1,5:45:0.1", "frames=-3"};
    QTest::newRow("negative value after '='")
        << QStringList{"--frames=-3"} << QStringList{"frames=-3"};
    QTest::newRow("flag") << QStringList{"--headless", "a.h5"}
                          << QStringList{"flag headless", "file a.h5"};
    QTest::newRow("flag given a value")
        << QStringList{"--headless=yes"}
        << QStringList{"error: test: --headless=yes: --headless takes no value"};
    QTest::newRow("missing value")
        << QStringList{"--headless", "--input"}
        << QStringList{"flag headless", "error: test: --input needs a value"};
    QTest::newRow("not a number") << QStringList{"--frames=ten"}
                                  << QStringList{
                                         "error: test: --frames: 'ten' is not a valid number"};
    QTest::newRow("unknown option with a value")
        << QStringList{"--colour=red"}
        << QStringList{"error: test: unknown option '--colour=red' (see --help)"};
    QTest::newRow("'--' ends the options")
        << QStringList{"--input", "x", "--", "--headless", "-a.h5"}
        << QStringList{"input=x", "file --headless", "file -a.h5"};
    QTest::newRow("'-' alone is positional") << QStringList{"-"} << QStringList{"file -"};
  }

  void argumentReaderFollowsTheConventions() {
    QFETCH(QStringList, args);
    QFETCH(QStringList, read);
    std::vector<std::string> arguments;
    for (const QString& arg : args) {
      arguments.push_back(arg.toStdString());
    }
    QCOMPARE(readArguments(arguments), read);
  }

  void everyCommandTakesValuesAfterAnEqualsSign() {
    // The grid's negative first value, after '=' and after a space: both image.
    QTemporaryDir dir;
    const QString out = dir.filePath("equals.h5");
    Run run = runApp({"--headless", "--input=sim", "--output=" + out, "--frames=2",
                      "--grid=-10:10:0.2,10:30:0.05", "--fnumber=1.25", "--apodisation=rect",
                      "--mode=rf", "--policy=block", "--backend=cpu"});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    {
      const cineflow::test::PlainFile written(out.toStdString());
      QVERIFY(written.id >= 0);
      QCOMPARE(cineflow::test::shapeOf(written.id, "bmode_db"),
               (std::vector<hsize_t>{2, 401, 101}));
      QCOMPARE(cineflow::test::readDouble(written.id, "f_number"), 1.25);
      QCOMPARE(cineflow::test::readString(written.id, "apodisation"), std::string("rect"));
    }
    // bench and convert read their options the same way (refused here for what they say, not
    // for how they are written).
    run = runApp({"bench", "--preset=course", "--save-volumes=d"});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains("'course' preset has no volumes"), qPrintable(run.err));
    run = runApp({"convert", "--map=colour=red", "in.mat", "out.h5"});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains("colour"), qPrintable(run.err));
    QVERIFY2(!run.err.contains("unknown option"), qPrintable(run.err));
  }

  void flagsGivenAValueAreRefused() {
    const QList<std::pair<QStringList, QString>> cases = {
        {{"--headless=yes", "--output", "x.h5"}, "--headless"},
        {{"--version=2"}, "--version"},
        {{"--help=all"}, "--help"},
        {{"bench", "--help=all"}, "--help"},
        {{"convert", "--help=all"}, "--help"}};
    for (const auto& [args, flag] : cases) {
      const Run run = runApp(args);
      QVERIFY2(run.exitCode == 2, qPrintable(args.join(' ') + ": " + run.err));
      QVERIFY2(run.err.contains(flag + " takes no value"), qPrintable(run.err));
    }
  }

  // A file that cannot be read exits 1; a bad value of a known option (also one that this input
  // cannot take) is a bad command line and exits 2, as the manual says.
  void badInputsAndValuesExitNonZeroAndNameTheProblem() {
    QTemporaryDir dir;
    const QString out = dir.filePath("out.h5");
    Run run = runApp({"--headless", "--input", "/nonexistent/rf.h5", "--output", out});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains("/nonexistent/rf.h5"), qPrintable(run.err));
    run = runApp({"--headless", "--input", "sim", "--output", out, "--grid", "5:1:0.1,5:40:0.05",
                  "--frames", "1"});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains("grid"), qPrintable(run.err));
    run = runApp({"--headless", "--input", "sim", "--output", out, "--backend", "quantum"});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains("quantum"), qPrintable(run.err));
    QVERIFY(!QFile::exists(out));  // a failed run leaves no output file
    // The I/Q options act in I/Q mode only: asking for them in RF mode is refused.
    run = runApp({"--headless", "--input", "sim", "--output", out, "--mode", "rf",
                  "--iq-decimation", "2", "--frames", "1"});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains("I/Q and Doppler modes only"), qPrintable(run.err));
    QVERIFY(!QFile::exists(out));
    // The Doppler options act in the Doppler modes only; the 3-D simulator's frames are slices of
    // a sweep, which Doppler refuses by name.
    run = runApp({"--headless", "--input", "sim-flow", "--output", out, "--mode", "iq",
                  "--ensemble", "8", "--frames", "1"});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains("Doppler modes only"), qPrintable(run.err));
    run = runApp(
        {"--headless", "--input", "sim", "--output", out, "--mode", "doppler", "--frames", "1"});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains("volume sweep"), qPrintable(run.err));
    run = runApp({"--headless", "--input", "sim-flow", "--output", out, "--mode", "doppler",
                  "--wall-filter", "wavelet"});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains("wavelet"), qPrintable(run.err));
    QVERIFY(!QFile::exists(out));
  }

  void headlessDopplerWritesFlowBesideTheBmode() {
    QTemporaryDir dir;
    const QString out = dir.filePath("flow.h5");
    const Run run = runApp({"--headless",
                            "--input",
                            "sim-flow",
                            "--output",
                            out,
                            "--mode",
                            "doppler",
                            "--ensemble",
                            "8",
                            "--ensemble-mode",
                            "block",
                            "--wall-filter",
                            "regression:1",
                            "--colour-box",
                            "-5:5,20:30",
                            "--frames",
                            "16",
                            "--grid",
                            "-9:9:0.2,8:30:0.1",
                            "--backend",
                            "cpu"});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    QVERIFY2(run.out.contains("doppler"), qPrintable(run.out));  // its stage's time
    const cineflow::test::PlainFile file(out.toStdString());
    QVERIFY(file.id >= 0);
    for (const char* name : {"bmode_db", "velocity_m_s", "variance_m2_s2", "power_db"}) {
      QCOMPARE(cineflow::test::shapeOf(file.id, name),
               (std::vector<hsize_t>{16, 221, 91}));  // z 8..30 step 0.1, x -9..9 step 0.2
    }
    QCOMPARE(cineflow::test::readString(file.id, "imaging_mode"), std::string("doppler"));
    QCOMPARE(cineflow::test::readDouble(file.id, "doppler_prf_hz"), 5000.0);
    const auto velocity = cineflow::test::readAll<float>(file.id, "velocity_m_s", H5T_NATIVE_FLOAT);
    // Frame 7 completes the first block: inside the box (x -5..5, z 20..30) a velocity, outside
    // none; frame 6 has none anywhere.
    const std::size_t frame = 221 * 91;
    const auto at = [&](int f, double xMm, double zMm) {
      const auto ix = static_cast<std::size_t>(std::lround((xMm + 9) / 0.2));
      const auto iz = static_cast<std::size_t>(std::lround((zMm - 8) / 0.1));
      return velocity[static_cast<std::size_t>(f) * frame + iz * 91 + ix];
    };
    QVERIFY(std::isnan(at(6, 0, 25)));
    QVERIFY(std::isfinite(at(7, 0, 25)));
    QVERIFY(std::isnan(at(7, 0, 15)));
    QVERIFY(std::isnan(at(7, 7, 25)));
  }

  void headlessSimulatorWritesABmodeFile() {
    QTemporaryDir dir;
    const QString out = dir.filePath("sim.h5");
    const Run run = runApp({"--headless", "--input", "sim", "--output", out, "--frames", "5",
                            "--grid", "-10:10:0.2,10:30:0.05", "--backend", "cpu"});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    QVERIFY2(run.out.contains("frames/s"), qPrintable(run.out));
    QVERIFY2(run.out.contains("beamform"), qPrintable(run.out));

    const hid_t file = H5Fopen(out.toUtf8().constData(), H5F_ACC_RDONLY, H5P_DEFAULT);
    QVERIFY(file >= 0);
    const hid_t dataset = H5Dopen2(file, "/bmode_db", H5P_DEFAULT);
    QVERIFY(dataset >= 0);
    const hid_t space = H5Dget_space(dataset);
    hsize_t dims[3] = {};
    QCOMPARE(H5Sget_simple_extent_ndims(space), 3);
    H5Sget_simple_extent_dims(space, dims, nullptr);
    QCOMPARE(dims[0], hsize_t(5));
    QCOMPARE(dims[1], hsize_t(401));  // z 10..30 mm step 0.05
    QCOMPARE(dims[2], hsize_t(101));  // x -10..10 mm step 0.2
    std::vector<float> bmode(dims[0] * dims[1] * dims[2]);
    QVERIFY(H5Dread(dataset, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, bmode.data()) >= 0);
    const auto [lo, hi] = std::minmax_element(bmode.begin(), bmode.end());
    QVERIFY2(*hi - *lo > 30.0f, "a phantom image spans more than 30 dB");
    H5Sclose(space);
    H5Dclose(dataset);
    H5Fclose(file);
  }

  void headlessReadsAMatlabFileWithAMapping() {
    const std::string input = cineflow::test::datasetFile("original/PWI_disk.mat");
    if (input.empty()) {
      QFAIL("data/original/PWI_disk.mat is missing from this clone (data/README.md)");
    }
    QTemporaryDir dir;
    const QString out = dir.filePath("pwi.h5");
    const QString path = QString::fromStdString(input);
    Run run = runApp(
        {"--headless", "--input", path, "--output", out, "--frames", "2", "--backend", "cpu"});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    QVERIFY2(run.err.contains("imaging in I/Q mode"), qPrintable(run.err));
    // A mapping naming a variable the file lacks: refused, naming it and what the file has.
    run = runApp({"--headless", "--input", path, "--output", out, "--map", "rf=channels",
                  "--backend", "cpu"});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains("no variable 'channels'") && run.err.contains("RF, param"),
             qPrintable(run.err));
    QCOMPARE(
        runApp({"--headless", "--input", path, "--output", out, "--map", "colour=red"}).exitCode,
        2);
  }

  void headlessImagesBandpassSampledRfInIqModeAndSaysSo() {
    const std::string input = cineflow::test::datasetFile("verasonics_rotating_disk.h5");
    if (input.empty()) {
      QFAIL("data/verasonics_rotating_disk.h5 is missing from this clone (data/README.md)");
    }
    QTemporaryDir dir;
    const QString out = dir.filePath("disk.h5");
    const QString path = QString::fromStdString(input);
    Run run = runApp({"--headless", "--input", path, "--output", out, "--frames", "2", "--grid",
                      "-12.5:12.5:0.1,10:35:0.1", "--fnumber", "1", "--apodisation", "rect",
                      "--backend", "cpu"});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    QVERIFY2(run.err.contains("below 2 x f0 = 10.00 MHz: imaging in I/Q mode"),
             qPrintable(run.err));
    QVERIFY2(run.out.contains("demodulate"), qPrintable(run.out));
    const hid_t file = H5Fopen(out.toUtf8().constData(), H5F_ACC_RDONLY, H5P_DEFAULT);
    QVERIFY(file >= 0);
    const hid_t dataset = H5Dopen2(file, "/bmode_db", H5P_DEFAULT);
    QVERIFY(dataset >= 0);
    H5Dclose(dataset);
    // The output says how it was imaged: the file's 15 % bandwidth, no decimation.
    QCOMPARE(cineflow::test::readDouble(file, "iq_bandwidth_percent"), 15.0);
    QCOMPARE(cineflow::test::readDouble(file, "iq_decimation"), 1.0);
    H5Fclose(file);
    // An operator's bandwidth and decimation are used and recorded.
    run = runApp({"--headless", "--input", path, "--output", out, "--frames", "1", "--iq-bandwidth",
                  "25", "--iq-decimation", "2", "--backend", "cpu"});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    {
      const cineflow::test::PlainFile written(out.toStdString());
      QVERIFY(written.id >= 0);
      QCOMPARE(cineflow::test::readDouble(written.id, "iq_bandwidth_percent"), 25.0);
      QCOMPARE(cineflow::test::readDouble(written.id, "iq_decimation"), 2.0);
    }
    // At fs = 6.67 MHz the negative band's image lies 3.33 MHz from the carrier: a 100 %
    // (5 MHz) band would take it in, and is refused saying so.
    QFile::remove(out);
    run = runApp({"--headless", "--input", path, "--output", out, "--frames", "1", "--iq-bandwidth",
                  "100", "--backend", "cpu"});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains("image of the negative band") && run.err.contains("3.33 MHz"),
             qPrintable(run.err));
    QVERIFY(!QFile::exists(out));
    // RF mode cannot image it: refused with the reason, and no file is left.
    QFile::remove(out);
    run = runApp({"--headless", "--input", path, "--output", out, "--mode", "rf", "--frames", "1",
                  "--backend", "cpu"});
    QCOMPARE(run.exitCode, 2);  // a mode this input cannot take: a bad value of --mode
    QVERIFY2(run.err.contains("use I/Q mode"), qPrintable(run.err));
    QVERIFY(!QFile::exists(out));
  }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"

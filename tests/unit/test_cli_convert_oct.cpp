// `cineflow convert` for OCT, run as a user runs it: raw spectra with a JSON description and the
// OCT simulator into cineflow.oct/1, which `--headless --input` then images; a partial frame or an
// unknown key exits 1 naming the problem and leaves no file; options of another form exit 2.
#include <hdf5.h>

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "support/plain_hdf5.hpp"
#include "support/run_app.hpp"
#include "support/test_paths.hpp"
#include "support/test_random.hpp"

namespace {

using Run = cineflow::test::AppRun;
using cineflow::test::runApp;

// `frames` frames of 64 A-scans x 256 samples of seeded random 12-bit counts (little-endian).
std::vector<std::uint16_t> writeRaw(const QString& path, int frames, std::size_t tail = 0) {
  std::vector<std::uint16_t> counts(std::size_t{64} * 256 * static_cast<std::size_t>(frames));
  cineflow::test::SeededRandom random(31);
  for (std::uint16_t& value : counts) {
    value = static_cast<std::uint16_t>(random.integer(100, 4095));
  }
  std::ofstream file(path.toStdString(), std::ios::binary | std::ios::trunc);
  for (const std::uint16_t value : counts) {
    const char pair[2] = {static_cast<char>(value & 0xff), static_cast<char>(value >> 8)};
    file.write(pair, 2);
  }
  file << std::string(tail, '\0');
  return counts;
}

void writeDescription(const QString& path, const QString& extra = {}) {
  std::ofstream(path.toStdString(), std::ios::trunc)
      << R"({"samples": 256, "ascans": 64, "bit_depth": 12, "wavelength_first_m": 790e-9,
             "wavelength_last_m": 890e-9, "centre_wavelength_m": 840e-9,
             "bscans_per_volume": 4, "bidirectional": false, "flyback_ascans": 0,
             "lateral_step_m": 10e-6, "elevation_step_m": 20e-6)"
      << extra.toStdString() << "}";
}

}  // namespace

class TestCliConvertOct : public QObject {
  Q_OBJECT

 private slots:
  void helpDocumentsEveryForm() {
    const Run run = runApp({"convert", "--help"});
    QCOMPARE(run.exitCode, 0);
    for (const char* text : {"IN.mat OUT.h5 [--map SPEC]", "IN.bin OUT.h5 --describe DESC.json",
                             "oct-sim OUT.h5 [--frames N]", "wavelength_file", "header_bytes",
                             "uint16be", "dispersion_a2_rad"}) {
      QVERIFY2(run.out.contains(text), text);
    }
  }

  void rawSpectraConvertAndImage() {
    QTemporaryDir dir;
    const QString raw = dir.filePath("scan.bin"), json = dir.filePath("scan.json");
    const QString out = dir.filePath("scan.h5");
    const std::vector<std::uint16_t> counts = writeRaw(raw, 4);
    writeDescription(json);
    Run run = runApp({"convert", raw, out, "--describe", json});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    QVERIFY2(run.out.contains("wrote 4 frames of 64 A-scans x 256 samples"), qPrintable(run.out));
    {
      const cineflow::test::PlainFile file(out.toStdString());
      QCOMPARE(cineflow::test::readString(file.id, "schema"), std::string("cineflow.oct/1"));
      QCOMPARE(cineflow::test::readAll<std::uint16_t>(file.id, "spectra", H5T_NATIVE_UINT16),
               counts);
    }
    const QString image = dir.filePath("image.h5");
    run = runApp(
        {"--headless", "--input", out, "--output", image, "--frames", "4", "--backend", "cpu"});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    const cineflow::test::PlainFile imaged(image.toStdString());
    QCOMPARE(cineflow::test::readString(imaged.id, "modality"), std::string("oct"));
  }

  void importErrorsExitOneAndLeaveNoFile() {
    QTemporaryDir dir;
    const QString raw = dir.filePath("partial.bin"), json = dir.filePath("scan.json");
    const QString out = dir.filePath("partial.h5");
    writeRaw(raw, 2, 1000);
    writeDescription(json);
    Run run = runApp({"convert", raw, out, "--describe", json});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains("partial.bin has 66536 bytes after its 0-byte header") &&
                 run.err.contains("frames of 32768 bytes"),
             qPrintable(run.err));
    QVERIFY(!QFile::exists(out));

    writeRaw(raw, 2);
    writeDescription(json, R"(, "bscans_per_volum": 4)");
    run = runApp({"convert", raw, out, "--describe", json});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains("unknown key \"bscans_per_volum\""), qPrintable(run.err));
    QVERIFY(!QFile::exists(out));
  }

  void optionsOfAnotherFormExitTwo() {
    const QList<QStringList> cases = {
        {"convert", "oct-sim", "out.h5", "--describe", "d.json"},
        {"convert", "oct-sim", "out.h5", "--map", "rf=RF"},
        {"convert", "in.bin", "out.h5", "--describe", "d.json", "--frames", "3"},
        {"convert", "in.bin", "out.h5", "--describe", "d.json", "--map", "rf=RF"},
        {"convert", "oct-sim", "out.h5", "--frames", "0"},
        {"convert", "oct-sim", "out.h5", "--frames", "many"},
        {"convert", "in.bin", "out.h5", "--describe"},
        {"convert", "oct-sim"}};
    for (const QStringList& args : cases) {
      const Run run = runApp(args);
      QVERIFY2(run.exitCode == 2, qPrintable(args.join(' ') + ": " + run.err));
      QVERIFY2(run.err.startsWith("cineflow convert: "), qPrintable(run.err));
    }
  }

  void octSimulatorRecords() {
    QTemporaryDir dir;
    const QString out = dir.filePath("oct_sim.h5");
    const Run run = runApp({"convert", "oct-sim", out, "--frames", "2"});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    const cineflow::test::PlainFile file(out.toStdString());
    QCOMPARE(cineflow::test::readString(file.id, "schema"), std::string("cineflow.oct/1"));
    QCOMPARE(cineflow::test::shapeOf(file.id, "spectra")[0], hsize_t(2));
    QCOMPARE(cineflow::test::readDouble(file.id, "bscans_per_volume"), 2.0);
    QVERIFY(cineflow::test::readDouble(file.id, "dispersion_a2_rad") > 0);
  }

  // --oct-dispersion auto searches the middle B-scan and prints what it found (headless and in
  // convert); a stated centre wavelength is recorded; values beyond the phase table are refused.
  void automaticDispersionHeadlessAndInConvert() {
    QTemporaryDir dir;
    const QString recording = dir.filePath("oct_sim.h5"), out = dir.filePath("bscans.h5");
    Run run =
        runApp({"convert", "oct-sim", recording, "--frames", "2", "--oct-dispersion", "auto"});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    QVERIFY2(run.out.contains("--oct-dispersion auto: a2 = "), qPrintable(run.out));
    {
      const cineflow::test::PlainFile file(recording.toStdString());
      // The simulator's 60 rad (the engine's test of the search: within 10 %) about 840 nm.
      QVERIFY(std::abs(cineflow::test::readDouble(file.id, "dispersion_a2_rad") - 60) <= 6);
      QCOMPARE(cineflow::test::readDouble(file.id, "dispersion_centre_wavelength_m"), 840e-9);
    }
    run = runApp({"--headless", "--input", recording, "--output", out, "--backend", "cpu",
                  "--oct-dispersion", "auto"});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    QVERIFY2(run.out.contains("about 840.0 nm"), qPrintable(run.out));
    QFile::remove(out);
    run = runApp({"--headless", "--input", recording, "--output", out, "--backend", "cpu",
                  "--oct-dispersion", "50,10,850"});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    {
      const cineflow::test::PlainFile file(out.toStdString());
      QCOMPARE(cineflow::test::readDouble(file.id, "dispersion_centre_wavelength_m"), 850e-9);
    }
    for (const QStringList& options :
         {QStringList{"--oct-dispersion", "45000,0"}, QStringList{"--oct-dispersion", "1e-27,0"}}) {
      QFile::remove(out);
      run = runApp(
          QStringList{"--headless", "--input", recording, "--output", out, "--backend", "cpu"} +
          options);
      QVERIFY2(run.exitCode == 2 && run.err.contains("dispersion a2") &&
                   run.err.contains("not physical units"),
               qPrintable(run.err));
    }
    run = runApp({"convert", "oct-sim", dir.filePath("x.h5"), "--frames", "2", "--oct-dispersion",
                  "0,99999"});
    QVERIFY2(run.exitCode == 1 && run.err.contains("dispersion a3"), qPrintable(run.err));
  }

  // Headless OCT processing takes the --oct- options and records them in its output; bad values
  // and options of the other modality are refused with the reason.
  void headlessOctOptionsReachTheChain() {
    QTemporaryDir dir;
    const QString recording = dir.filePath("oct_sim.h5"), out = dir.filePath("bscans.h5");
    Run run = runApp({"convert", "oct-sim", recording, "--frames", "2"});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    run = runApp({"--headless", "--input", recording, "--output", out, "--backend", "cpu",
                  "--oct-dispersion", "10,-5", "--oct-window", "gaussian", "--refractive-index",
                  "1.4", "--oct-k-polynomial", "0.25, 0.999"});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    {
      const cineflow::test::PlainFile file(out.toStdString());
      QVERIFY(file.id >= 0);
      QCOMPARE(cineflow::test::readString(file.id, "modality"), std::string("oct"));
      QCOMPARE(cineflow::test::readDouble(file.id, "dispersion_a2_rad"), 10.0);
      QCOMPARE(cineflow::test::readDouble(file.id, "dispersion_a3_rad"), -5.0);
      QCOMPARE(cineflow::test::readString(file.id, "window"), std::string("gaussian"));
      QCOMPARE(cineflow::test::readString(file.id, "k_linearisation"), std::string("polynomial"));
      QCOMPARE(cineflow::test::readDouble(file.id, "refractive_index"), 1.4);
    }
    // Without options the recording's own dispersion (the simulator's 60 and 20 rad) applies.
    QFile::remove(out);
    run = runApp({"--headless", "--input", recording, "--output", out, "--backend", "cpu"});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    {
      const cineflow::test::PlainFile file(out.toStdString());
      QCOMPARE(cineflow::test::readDouble(file.id, "dispersion_a2_rad"), 60.0);
    }

    const QString missing = dir.filePath("no-such-table.txt");
    // A bad value of a known option, a missing table named by one included, is a bad command
    // line: exit 2.
    const struct {
      QStringList options;
      QString reason;
      int exitCode;
    } refused[] = {{{"--oct-dispersion", "10"}, "two numbers", 2},
                   {{"--oct-k-table", missing}, "no-such-table.txt", 2},
                   {{"--refractive-index", "0.5"}, "refractive index", 2},
                   {{"--fnumber", "2"}, "apply to ultrasound", 2},
                   {{"--received-levels", "db"}, "applies to received images", 2}};
    for (const auto& [options, reason, exitCode] : refused) {
      QFile::remove(out);
      run = runApp(
          QStringList{"--headless", "--input", recording, "--output", out, "--backend", "cpu"} +
          options);
      QVERIFY2(run.exitCode == exitCode && run.err.contains(reason),
               qPrintable(options.join(' ') + ": " + run.err));
      QVERIFY(!QFile::exists(out));
    }
    run = runApp({"--headless", "--input", "sim", "--output", out, "--oct-window", "hann"});
    QVERIFY2(run.exitCode == 2 && run.err.contains("apply to OCT"), qPrintable(run.err));
    for (const QStringList& args :
         {QStringList{"--headless", "--output", out, "--oct-window", "hamming"},
          QStringList{"--headless", "--output", out, "--oct-k-polynomial", "1,x"},
          QStringList{"--headless", "--output", out, "--oct-k-table", "t.txt", "--oct-k-polynomial",
                      "0,1"},
          QStringList{"--input", recording, "--oct-dispersion", "1,2"}}) {
      run = runApp(args);
      QVERIFY2(run.exitCode == 2, qPrintable(args.join(' ') + ": " + run.err));
    }
  }
};

QTEST_GUILESS_MAIN(TestCliConvertOct)
#include "test_cli_convert_oct.moc"

// Raw OCT spectra (.bin + JSON description, oct/raw_spectra_import.hpp) into cineflow.oct/1:
// seeded random counts come back byte for byte (little- and big-endian, after a header), each of
// the three wavelength calibrations gives the table it describes, and what does not add up (a
// partial frame, an unknown, missing or mistyped key, two calibrations) is refused with a message
// that names the file and the problem, leaving no output.
#include <QtTest>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "oct/oct_file_source.hpp"
#include "oct/raw_spectra_import.hpp"
#include "support/plain_hdf5.hpp"
#include "support/test_random.hpp"

using namespace cineflow;
using oct::RawSpectraError;

namespace {

constexpr int kSamples = 48;
constexpr int kAscans = 20;
constexpr std::size_t kFrameValues = std::size_t{kSamples} * kAscans;

std::vector<std::uint16_t> randomCounts(std::size_t frames, std::uint64_t seed) {
  std::vector<std::uint16_t> counts(kFrameValues * frames);
  test::SeededRandom random(seed);
  for (std::uint16_t& value : counts) {
    value = static_cast<std::uint16_t>(random.integer(1, 65535));
  }
  return counts;
}

// `header` bytes of 0xA5, then the counts in the byte order asked for, then `tail` extra bytes.
void writeRaw(const std::filesystem::path& path, const std::vector<std::uint16_t>& counts,
              std::size_t header = 0, bool bigEndian = false, std::size_t tail = 0) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  const std::string head(header, '\xa5');
  file.write(head.data(), static_cast<std::streamsize>(head.size()));
  for (const std::uint16_t value : counts) {
    const char low = static_cast<char>(value & 0xff), high = static_cast<char>(value >> 8);
    const char pair[2] = {bigEndian ? high : low, bigEndian ? low : high};
    file.write(pair, 2);
  }
  const std::string extra(tail, '\x01');
  file.write(extra.data(), static_cast<std::streamsize>(extra.size()));
}

// A complete description of kAscans x kSamples frames: `calibration` (linear unless given),
// then `extraKeys`.
std::string description(const std::string& extraKeys = {},
                        const std::string& calibration =
                            R"("wavelength_first_m": 800e-9, "wavelength_last_m": 880e-9)") {
  return std::string(R"({"samples": 48, "ascans": 20, "bit_depth": 12, )") + calibration +
         R"(, "centre_wavelength_m": 840e-9, "bandwidth_m": 40e-9, "bscans_per_volume": 3,
            "bidirectional": true, "flyback_ascans": 2, "lateral_step_m": 8e-6,
            "elevation_step_m": 9e-6, "line_rate_hz": 70000)" +
         (extraKeys.empty() ? std::string() : ", " + extraKeys) + "}";
}

// `text` with its first `from` replaced by `to`.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  return text.replace(text.find(from), from.size(), to);
}

void writeText(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::trunc) << text;
}

// The spectra of `path` as an outside tool reads them.
std::vector<std::uint16_t> readSpectra(const std::filesystem::path& path) {
  const test::PlainFile file(path.string());
  return test::readAll<std::uint16_t>(file.id, "spectra", H5T_NATIVE_UINT16);
}

}  // namespace

class TestOctFileImport : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;

  std::filesystem::path path(const std::string& name) const {
    return dir_.filePath(QString::fromStdString(name)).toStdString();
  }

  // Imports `raw` described by `json` (written next to it) into `out`; returns the frames.
  std::uint64_t convert(const std::string& name, const std::string& json,
                        const std::filesystem::path& raw, const std::filesystem::path& out) {
    const std::filesystem::path described = path(name + ".json");
    writeText(described, json);
    const oct::RawSpectraDescription parsed = oct::readRawSpectraDescription(described);
    return oct::importRawSpectra(raw, parsed, out, {{"source", raw.string()}});
  }

  // Expects the description `json` (for a raw file of 2 frames) to be refused with `expected`.
  void expectRefused(const std::string& name, const std::string& json,
                     const std::vector<std::string>& expected) {
    const std::filesystem::path raw = path(name + ".bin");
    const std::filesystem::path out = path(name + ".h5");
    writeRaw(raw, randomCounts(2, 3));
    try {
      convert(name, json, raw, out);
      QFAIL(qPrintable(QString::fromStdString(name) + " was imported"));
    } catch (const RawSpectraError& e) {
      const std::string message = e.what();
      qInfo("%s", message.c_str());
      for (const std::string& part : expected) {
        QVERIFY2(message.find(part) != std::string::npos,
                 (message + " [expected: " + part + "]").c_str());
      }
    }
    QVERIFY(!std::filesystem::exists(out));
  }

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void roundTripIsByteExact() {
    const std::vector<std::uint16_t> counts = randomCounts(4, 21);
    const std::filesystem::path raw = path("plain.bin"), out = path("plain.h5");
    writeRaw(raw, counts);
    QCOMPARE(convert("plain", description(), raw, out), std::uint64_t(4));
    QCOMPARE(readSpectra(out), counts);
    {
      const test::PlainFile file(out.string());
      QCOMPARE(test::shapeOf(file.id, "spectra"), (std::vector<hsize_t>{4, 20, 48}));
    }
    // And it replays, with the description's acquisition.
    const oct::OctFileSource source(out);
    const oct::OctAcquisition& acq = source.acquisition();
    QCOMPARE(acq.samples, kSamples);
    QCOMPARE(acq.ascans, kAscans);
    QCOMPARE(acq.bitDepth, 12);
    QCOMPARE(acq.wavelengthM, oct::linearWavelengths(kSamples, 800e-9, 880e-9));
    QCOMPARE(acq.centreWavelengthM, 840e-9);
    QCOMPARE(acq.bandwidthM, 40e-9);
    QCOMPARE(acq.bscansPerVolume, 3);
    QVERIFY(acq.bidirectional);
    QCOMPARE(acq.flybackAscans, 2);
    QCOMPARE(acq.lateralStepM, 8e-6);
    QCOMPARE(acq.elevationStepM, 9e-6);
    QCOMPARE(acq.lineRateHz, 70000.0);
    QVERIFY(!source.recordedDispersion().has_value());
  }

  void headerIsSkippedAndBigEndianRead() {
    const std::vector<std::uint16_t> counts = randomCounts(3, 22);
    const std::filesystem::path raw = path("header.bin"), out = path("header.h5");
    writeRaw(raw, counts, 1000);
    QCOMPARE(convert("header", description(R"("header_bytes": 1000)"), raw, out), std::uint64_t(3));
    QCOMPARE(readSpectra(out), counts);

    const std::filesystem::path rawBe = path("big.bin"), outBe = path("big.h5");
    writeRaw(rawBe, counts, 6, true);
    convert("big", description(R"("header_bytes": 6, "sample_format": "uint16be",
                          "dispersion_a2_rad": 42.5, "dispersion_a3_rad": -7)"),
            rawBe, outBe);
    QCOMPARE(readSpectra(outBe), counts);
    const oct::OctFileSource source(outBe);
    QVERIFY(source.recordedDispersion().has_value());
    QCOMPARE(source.recordedDispersion()->a2Rad, 42.5);
    QCOMPARE(source.recordedDispersion()->a3Rad, -7.0);
  }

  void wavelengthFileIsRelativeToTheDescription() {
    const std::filesystem::path folder = path("calibrated");
    std::filesystem::create_directory(folder);
    std::vector<double> table(kSamples);
    std::string text = "# wavelength per pixel, metres\n";
    for (int i = 0; i < kSamples; ++i) {
      table[static_cast<std::size_t>(i)] = 900e-9 - 2.5e-9 * i - 1e-12 * i * i;  // falling
      char line[64];
      std::snprintf(line, sizeof line, "%.17g\r\n", table[static_cast<std::size_t>(i)]);
      text += line;
      if (i == 10) {
        text += "\n";  // blank lines are skipped
      }
    }
    writeText(folder / "lambda.txt", text);
    const std::vector<std::uint16_t> counts = randomCounts(3, 23);
    writeRaw(folder / "cal.bin", counts);
    writeText(folder / "cal.json", description({}, R"("wavelength_file": "lambda.txt")"));
    const oct::RawSpectraDescription parsed = oct::readRawSpectraDescription(folder / "cal.json");
    QCOMPARE(parsed.acquisition.wavelengthM, table);  // %.17g round-trips exactly
    oct::importRawSpectra(folder / "cal.bin", parsed, folder / "cal.h5");
    QCOMPARE(oct::OctFileSource(folder / "cal.h5").acquisition().wavelengthM, table);

    // A table of the wrong length names the wavelength file.
    writeText(folder / "short.txt", "8.0e-7\n8.1e-7\n");
    expectRefused("short_table", description({}, R"("wavelength_file": "calibrated/short.txt")"),
                  {"short.txt", "holds 2 wavelengths", "48"});
    writeText(folder / "word.txt", "8.0e-7\nabc\n");
    expectRefused("word_table", description({}, R"("wavelength_file": "calibrated/word.txt")"),
                  {"word.txt", "line 2", "abc"});
    expectRefused("no_table", description({}, R"("wavelength_file": "calibrated/absent.txt")"),
                  {"absent.txt", "cannot open"});
  }

  void wavelengthPolynomial() {
    const std::vector<std::uint16_t> counts = randomCounts(3, 24);
    const std::filesystem::path raw = path("poly.bin"), out = path("poly.h5");
    writeRaw(raw, counts);
    convert("poly", description({}, R"("wavelength_polynomial_m": [790e-9, 2e-9, 1e-12])"), raw,
            out);
    const oct::OctFileSource source(out);
    const std::vector<double>& table = source.acquisition().wavelengthM;
    QCOMPARE(table.size(), std::size_t(kSamples));
    for (int i = 0; i < kSamples; ++i) {
      const double expected = 790e-9 + 2e-9 * i + 1e-12 * i * i;
      QVERIFY2(std::abs(table[static_cast<std::size_t>(i)] - expected) <= 1e-15 * expected,
               qPrintable(QString("sample %1").arg(i)));
    }
  }

  void partialFrameIsRefusedWithNumbers() {
    const std::filesystem::path raw = path("partial.bin"), out = path("partial.h5");
    writeRaw(raw, randomCounts(3, 25), 0, false, kFrameValues);  // 3.5 frames
    try {
      convert("partial", description(), raw, out);
      QFAIL("a partial frame was imported");
    } catch (const RawSpectraError& e) {
      const QString message = e.what();
      qInfo("%s", e.what());
      const QString expected = QString(
                                   "partial.bin has %1 bytes after its 0-byte header: 3.5 "
                                   "frames of %2 bytes")
                                   .arg(kFrameValues * 7)
                                   .arg(kFrameValues * 2);
      QVERIFY2(message.contains(expected), qPrintable(message + " [expected: " + expected + "]"));
    }
    QVERIFY(!std::filesystem::exists(out));
    // The same bytes with a header that leaves whole frames: imported.
    QCOMPARE(convert("partial_header",
                     description(QString(R"("header_bytes": %1)").arg(kFrameValues).toStdString()),
                     raw, out),
             std::uint64_t(3));

    // Smaller than its header, and nothing after it.
    writeRaw(path("tiny.bin"), {}, 10);
    try {
      convert("tiny", description(R"("header_bytes": 64)"), path("tiny.bin"), path("tiny.h5"));
      QFAIL("a file shorter than its header was imported");
    } catch (const RawSpectraError& e) {
      QVERIFY2(QString(e.what()).contains("has 10 bytes, fewer than its 64-byte header"), e.what());
    }
    // Whole frames, but fewer than one volume (bscans_per_volume 3).
    writeRaw(path("short.bin"), randomCounts(2, 26));
    try {
      convert("short", description(), path("short.bin"), path("short.h5"));
      QFAIL("fewer frames than a volume were imported");
    } catch (const RawSpectraError& e) {
      QVERIFY2(QString(e.what()).contains("short.bin holds 2 frame(s), fewer than one volume of 3"),
               e.what());
    }
    QVERIFY(!std::filesystem::exists(path("short.h5")));
    try {
      convert("empty", description(R"("header_bytes": 10)"), path("tiny.bin"), path("tiny.h5"));
      QFAIL("an empty file was imported");
    } catch (const RawSpectraError& e) {
      QVERIFY2(QString(e.what()).contains("no frames after its 10-byte header"), e.what());
    }
  }

  void descriptionsThatDoNotAddUpAreRefused() {
    expectRefused("unknown", description(R"("sampels": 48)"),
                  {"unknown.json", "unknown key \"sampels\"", "known keys"});
    expectRefused("missing", replaced(description(), R"("ascans": 20, )", ""),
                  {"missing.json", "missing key \"ascans\""});
    expectRefused("two_tables", description(R"("wavelength_polynomial_m": [8e-7, 1e-9])"),
                  {"exactly one of", "wavelength_file"});
    expectRefused("odd_key", description(R"("dispersion_a2": 1)"),
                  {"unknown key \"dispersion_a2\"", "dispersion_a2_rad"});
    expectRefused("half_linear", description({}, R"("wavelength_first_m": 8e-7)"),
                  {"missing key \"wavelength_last_m\""});
    expectRefused("depth", replaced(description(), R"("bit_depth": 12)", R"("bit_depth": 14)"),
                  {"bit_depth", "expected 12 or 16", "14"});
    expectRefused("fraction", description(R"("header_bytes": 1.5)"),
                  {"header_bytes", "whole number", "1.5"});
    expectRefused("string", description(R"("line_rate_hz": "fast")"),
                  {"line_rate_hz", "expected a number", "\"fast\""});
    expectRefused("format", description(R"("sample_format": "float32")"),
                  {"sample_format", "\"float32\""});
    expectRefused("flyback",
                  replaced(description(), R"("flyback_ascans": 2)", R"("flyback_ascans": 20)"),
                  {"flyback_ascans", "[0, 19]"});
    expectRefused("not_optical",
                  description({}, R"("wavelength_first_m": 800, "wavelength_last_m": 880)"),
                  {"not_optical.json", "not an optical wavelength"});
    expectRefused("not_json", R"({"samples": 48,)", {"not_json.json", "not valid JSON"});
    expectRefused("array", "[1, 2]", {"expected a JSON object"});
  }

  void missingFilesAreNamed() {
    try {
      oct::readRawSpectraDescription(path("absent.json"));
      QFAIL("read a missing description");
    } catch (const RawSpectraError& e) {
      QVERIFY2(QString(e.what()).contains("absent.json"), e.what());
    }
    writeText(path("ok.json"), description());
    const oct::RawSpectraDescription parsed = oct::readRawSpectraDescription(path("ok.json"));
    try {
      oct::importRawSpectra(path("absent.bin"), parsed, path("absent.h5"));
      QFAIL("imported a missing file");
    } catch (const RawSpectraError& e) {
      QVERIFY2(QString(e.what()).contains("absent.bin: file not found"), e.what());
    }
  }
};

QTEST_GUILESS_MAIN(TestOctFileImport)
#include "test_oct_file_import.moc"

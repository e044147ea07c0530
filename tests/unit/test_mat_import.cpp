// MATLAB import (acquire/mat_import.hpp) and `cineflow convert`: PyMUST's PWI_disk.mat imports,
// with the Verasonics preset, to exactly the samples and parameters of verasonics_rotating_disk.h5
// (data/original), and the converted file replays them; .mat files written
// here with matio cover the mapping: dimension orders with transmits, angles fitted from steered
// plane-wave delays, float data, v7.3 (HDF5) files (recognised by their header whatever their
// name); every inconsistency or bad value (cell or logical RF, NaN samples, non-positive
// parameters, an empty delay matrix, a truncated file) names the variable and what was expected;
// and the import reports its progress and can be abandoned from it.
#include <hdf5.h>
#include <matio.h>

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <numbers>
#include <vector>

#include "registry/source_factory.hpp"
#include "support/plain_hdf5.hpp"
#include "support/test_paths.hpp"
#include "support/test_random.hpp"
#include "ultrasound/mat_import.hpp"
#include "ultrasound/rf_file_source.hpp"
#include "ultrasound/rf_writer.hpp"
#include "ultrasound/ultrasound_modality.hpp"

using namespace cineflow;

namespace {

// A .mat file written with matio: variables added one by one.
class MatWriter {
 public:
  MatWriter(const std::string& path, mat_ft version = MAT_FT_MAT5,
            matio_compression compression = MAT_COMPRESSION_NONE)
      : mat_(Mat_CreateVer(path.c_str(), nullptr, version)), compression_(compression) {}
  ~MatWriter() {
    if (mat_ != nullptr) {
      Mat_Close(mat_);
    }
  }
  bool ok() const { return mat_ != nullptr; }

  template <class T>
  void add(const char* name, matio_classes cls, matio_types type, std::vector<std::size_t> dims,
           std::vector<T> values, int flags = 0) {
    matvar_t* var = Mat_VarCreate(name, cls, type, static_cast<int>(dims.size()), dims.data(),
                                  values.data(), flags);
    Mat_VarWrite(mat_, var, compression_);
    Mat_VarFree(var);
  }
  // A 1x1 cell holding one double (how Verasonics keeps RcvData).
  void addCell(const char* name) {
    std::size_t dims[2] = {1, 1};
    double value = 1;
    matvar_t* cells[1] = {Mat_VarCreate(nullptr, MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims, &value, 0)};
    matvar_t* cell = Mat_VarCreate(name, MAT_C_CELL, MAT_T_CELL, 2, dims, cells, 0);
    Mat_VarWrite(mat_, cell, MAT_COMPRESSION_NONE);
    Mat_VarFree(cell);
  }
  MatWriter(const MatWriter&) = delete;
  MatWriter& operator=(const MatWriter&) = delete;
  // A struct `name` of double fields (row vectors) and matrices [rows x cols] (column-major);
  // the fields are copied and then owned by the struct.
  void addStruct(
      const char* name, const std::vector<std::pair<std::string, std::vector<double>>>& scalars,
      const std::vector<std::tuple<std::string, std::size_t, std::size_t, std::vector<double>>>&
          matrices = {}) {
    std::vector<const char*> names;
    for (const auto& [field, value] : scalars) {
      names.push_back(field.c_str());
    }
    for (const auto& [field, rows, cols, values] : matrices) {
      names.push_back(field.c_str());
    }
    std::size_t structDims[2] = {1, 1};
    matvar_t* st =
        Mat_VarCreateStruct(name, 2, structDims, names.data(), static_cast<unsigned>(names.size()));
    for (const auto& [field, value] : scalars) {
      std::size_t dims[2] = {1, value.size()};
      std::vector<double> copy = value;
      Mat_VarSetStructFieldByName(
          st, field.c_str(), 0,
          Mat_VarCreate(nullptr, MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims, copy.data(), 0));
    }
    for (const auto& [field, rows, cols, values] : matrices) {
      std::size_t dims[2] = {rows, cols};
      std::vector<double> copy = values;
      Mat_VarSetStructFieldByName(
          st, field.c_str(), 0,
          Mat_VarCreate(nullptr, MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims, copy.data(), 0));
    }
    Mat_VarWrite(mat_, st, compression_);
    Mat_VarFree(st);
  }

 private:
  mat_t* mat_;
  matio_compression compression_;
};

struct Synthetic {
  int samples = 40, elements = 8, transmits = 3, frames = 2;
  double pitch = 0.3e-3, c = 1540;
  std::vector<double> anglesRad = {-0.1, 0.0, 0.15};
  // Transmit delays as scanners store them, the earliest element firing at 0 (each wave then
  // crosses the centre later than 0), or centred (every wave crosses the centre at 0).
  bool firstFiresAtZero = false;
};

// A param struct whose TXdelay rows are the plane waves' delays ([transmits x elements]; with
// `delayRows` = 0 an empty matrix).
void writeParams(MatWriter& writer, const Synthetic& p, double elementsField = -1,
                 std::size_t delayRows = ~std::size_t{0}) {
  const std::size_t rows = delayRows == ~std::size_t{0} ? std::size_t(p.transmits) : delayRows;
  std::vector<double> delays(rows * static_cast<std::size_t>(p.elements));
  for (std::size_t t = 0; t < rows; ++t) {
    for (int e = 0; e < p.elements; ++e) {
      const double x = (e - (p.elements - 1) / 2.0) * p.pitch;
      const double sine = std::sin(p.anglesRad[t]);
      const double offset =
          p.firstFiresAtZero ? std::abs(sine) * (p.elements - 1) / 2.0 * p.pitch / p.c : 0.0;
      delays[t + static_cast<std::size_t>(e) * rows] = x * sine / p.c + offset;  // column-major
    }
  }
  writer.addStruct("param",
                   {{"fs", {20e6}},
                    {"fc", {5e6}},
                    {"c", {p.c}},
                    {"t0", {1e-6}},
                    {"pitch", {p.pitch}},
                    {"bandwidth", {60}},
                    {"Nelements", {elementsField > 0 ? elementsField : double(p.elements)}}},
                   {{"TXdelay", rows, static_cast<std::size_t>(p.elements), delays}});
}

// RF[samples][elements][transmits][frames] (MATLAB order) with value(s, e, t, f) distinct, and
// the param struct.
void writeSynthetic(const std::string& path, const Synthetic& p, bool asFloat = false,
                    mat_ft version = MAT_FT_MAT5, double elementsField = -1,
                    matio_compression compression = MAT_COMPRESSION_NONE) {
  MatWriter writer(path, version, compression);
  QVERIFY(writer.ok());
  std::vector<double> rf;
  for (int f = 0; f < p.frames; ++f) {
    for (int t = 0; t < p.transmits; ++t) {
      for (int e = 0; e < p.elements; ++e) {
        for (int s = 0; s < p.samples; ++s) {
          rf.push_back(s + 100.0 * e + 1000.0 * t + 5000.0 * f + (asFloat ? 0.25 : 0.0));
        }
      }
    }
  }
  writer.add("RF", MAT_C_DOUBLE, MAT_T_DOUBLE,
             {static_cast<std::size_t>(p.samples), static_cast<std::size_t>(p.elements),
              static_cast<std::size_t>(p.transmits), static_cast<std::size_t>(p.frames)},
             rf);
  writeParams(writer, p, elementsField);
}

ultrasound::MatMapping syntheticMapping() {
  return ultrasound::MatMapping::parse("order=samples,elements,transmits,frames");
}

}  // namespace

class TestMatImport : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;

  std::string path(const char* name) { return dir_.filePath(name).toStdString(); }

  void expectFailure(const std::string& file, const ultrasound::MatMapping& mapping,
                     std::initializer_list<const char*> mentions) {
    try {
      ultrasound::importMat(file, mapping);
      QFAIL("the import succeeded");
    } catch (const acquire::SourceError& e) {
      qInfo("%s", e.what());
      for (const char* mention : mentions) {
        QVERIFY2(std::string(e.what()).find(mention) != std::string::npos, e.what());
      }
    }
  }

 private slots:
  void pwiDiskImportsToTheConvertedFileExactly() {
    const std::string mat = test::datasetFile("original/PWI_disk.mat");
    const std::string h5 = test::datasetFile("verasonics_rotating_disk.h5");
    if (mat.empty() || h5.empty()) {
      QFAIL(
          "data/original/PWI_disk.mat or data/verasonics_rotating_disk.h5 is missing from this "
          "clone (data/README.md)");
    }
    std::vector<std::int16_t> expected;
    {
      const test::PlainFile file(h5);
      expected = test::readAll<std::int16_t>(file.id, "/rf", H5T_NATIVE_INT16);
    }
    const ultrasound::ImportedRecording imported =
        ultrasound::importMat(mat, ultrasound::MatMapping::verasonics());
    qInfo("%s", imported.note.c_str());
    QCOMPARE(imported.sampleType, acquire::SampleType::Int16);
    QCOMPARE(imported.frames, std::uint64_t{32});
    QVERIFY(imported.int16Samples == expected);  // every sample, in the same order

    auto reference = acquire::openSource(h5);
    const acquire::AcquisitionParams& want = ultrasound::requireUltrasound(*reference).params();
    const acquire::AcquisitionParams& got = imported.acq;
    QCOMPARE(got.samples, want.samples);
    QCOMPARE(got.samplingFrequencyHz, want.samplingFrequencyHz);
    QCOMPARE(got.centerFrequencyHz, want.centerFrequencyHz);
    QCOMPARE(got.soundSpeedMPerS, want.soundSpeedMPerS);
    QCOMPARE(got.t0S, want.t0S);
    QCOMPARE(got.fractionalBandwidth, want.fractionalBandwidth);
    QCOMPARE(got.anglesRad, want.anglesRad);
    QCOMPARE(got.elementXM.size(), want.elementXM.size());
    for (std::size_t e = 0; e < got.elementXM.size(); ++e) {
      QVERIFY(std::abs(got.elementXM[e] - want.elementXM[e]) < 1e-12);
    }

    // Converted, the file replays the same frames.
    const std::string converted = path("disk.h5");
    ultrasound::writeRfRecording(converted, imported);
    ultrasound::RfFileSource replay(converted);
    QCOMPARE(replay.frameCount(), std::uint64_t{32});
    QCOMPARE(replay.params().fractionalBandwidth, want.fractionalBandwidth);
    std::vector<std::byte> frame(replay.frameBytes());
    acquire::SliceInfo slice;
    replay.readFrame(31, frame, slice);
    const auto bytes = imported.frameBytes(31);
    QVERIFY(std::equal(frame.begin(), frame.end(), bytes.begin(), bytes.end()));
  }

  void convertCommandWritesARecording() {
    const std::string mat = path("synthetic.mat");
    writeSynthetic(mat, Synthetic{});
    const QString out = QString::fromStdString(path("converted.h5"));
    QProcess process;
    process.start(QString::fromStdString(test::appPath()),
                  {"convert", QString::fromStdString(mat), out, "--map",
                   "order=samples,elements,transmits,frames"});
    QVERIFY(process.waitForFinished(60000));
    QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
    QVERIFY(QString(process.readAllStandardOutput()).contains("wrote 2 frames"));
    ultrasound::RfFileSource replay(out.toStdString());
    QCOMPARE(replay.params().transmits(), 3);
    QCOMPARE(replay.sampleType(), acquire::SampleType::Int16);
    // A bad mapping is a command-line error (2), a missing variable an import error (1).
    process.start(QString::fromStdString(test::appPath()),
                  {"convert", QString::fromStdString(mat), out, "--map", "colour=red"});
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitCode(), 2);
    process.start(QString::fromStdString(test::appPath()),
                  {"convert", QString::fromStdString(mat), out, "--map", "rf=nothing"});
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitCode(), 1);
    QVERIFY(QString(process.readAllStandardError()).contains("no variable 'nothing'"));
  }

  void transmitsAndSteeredDelaysMap_data() {
    QTest::addColumn<bool>("asFloat");
    QTest::addColumn<bool>("v73");
    QTest::addColumn<bool>("compressed");
    QTest::newRow("integers, v5") << false << false << false;
    QTest::newRow("fractions, v5") << true << false << false;
    QTest::newRow("fractions, v5 compressed") << true << false << true;
    QTest::newRow("integers, v7.3 (HDF5)") << false << true << false;
  }
  void transmitsAndSteeredDelaysMap() {
    QFETCH(bool, asFloat);
    QFETCH(bool, v73);
    QFETCH(bool, compressed);
    const std::string mat = path(v73 ? "steered73.mat" : "steered.mat");
    const Synthetic p;
    writeSynthetic(mat, p, asFloat, v73 ? MAT_FT_MAT73 : MAT_FT_MAT5, -1,
                   compressed ? MAT_COMPRESSION_ZLIB : MAT_COMPRESSION_NONE);
    const ultrasound::ImportedRecording r = ultrasound::importMat(mat, syntheticMapping());
    QCOMPARE(r.frames, std::uint64_t{2});
    QCOMPARE(r.acq.transmits(), 3);
    QCOMPARE(r.acq.elements(), 8);
    QCOMPARE(r.acq.samples, 40);
    QCOMPARE(r.sampleType, asFloat ? acquire::SampleType::Float32 : acquire::SampleType::Int16);
    for (std::size_t t = 0; t < 3; ++t) {
      QVERIFY2(std::abs(r.acq.anglesRad[t] - p.anglesRad[t]) < 1e-9,
               qPrintable(QString::number(r.acq.anglesRad[t])));
    }
    // [frames][transmits][elements][samples]: value s + 100 e + 1000 t + 5000 f.
    const std::size_t at = ((1 * 3 + 2) * 8 + 5) * 40 + 7;  // f 1, t 2, e 5, s 7
    const double expected = 7 + 500 + 2000 + 5000 + (asFloat ? 0.25 : 0.0);
    const double value = asFloat ? r.float32Samples[at] : r.int16Samples[at];
    QCOMPARE(value, expected);
    QCOMPARE(r.acq.fractionalBandwidth, 0.6);
    QCOMPARE(r.acq.t0S, 1e-6);  // every wave crosses the centre at the delays' origin
    // The same data read as one transmit of 24 "frames" is refused: three angles per frame.
    expectFailure(mat, ultrasound::MatMapping::parse("order=samples,elements,frames"),
                  {"RF", "40x8x3x2", "names only 3 dimensions"});
  }

  void delaysFromTheFirstFiringMoveT0() {
    // One steered wave whose first element fires at 0: it crosses the centre 3.5 pitches of
    // sin(0.2) / c later, and t0 (measured from the first firing) moves back by as much.
    Synthetic one;
    one.transmits = 1;
    one.anglesRad = {0.2};
    one.firstFiresAtZero = true;
    const std::string mat = path("steered-one.mat");
    writeSynthetic(mat, one);
    const auto r = ultrasound::importMat(mat, syntheticMapping());
    const double crossing = std::sin(0.2) * 3.5 * one.pitch / one.c;
    QVERIFY2(std::abs(r.acq.t0S - (1e-6 - crossing)) < 1e-15,
             qPrintable(QString("t0 %1 s").arg(r.acq.t0S)));
    QVERIFY(std::abs(r.acq.anglesRad[0] - 0.2) < 1e-9);
    // Several waves crossing the centre at different times cannot share one t0: refused.
    Synthetic three;
    three.firstFiresAtZero = true;
    const std::string several = path("steered-three.mat");
    writeSynthetic(several, three);
    expectFailure(several, syntheticMapping(), {"param.TXdelay", "cross the array centre"});
  }

  void inconsistentImportsNameTheVariable() {
    const std::string mat = path("bad.mat");
    writeSynthetic(mat, Synthetic{}, false, MAT_FT_MAT5, 64);
    const ultrasound::MatMapping mapping = syntheticMapping();
    expectFailure(mat, mapping, {"param.Nelements", "64", "RF", "8"});
    expectFailure(mat, ultrasound::MatMapping::parse("rf=RFdata", mapping),
                  {"no variable 'RFdata'", "RF, param"});
    expectFailure(mat, ultrasound::MatMapping::parse("fs=param.sampling", mapping),
                  {"param.sampling", "no field 'sampling'", "fs"});
    expectFailure(mat, ultrasound::MatMapping::parse("c=param.TXdelay;elements=", mapping),
                  {"param.TXdelay", "expected one number"});
    expectFailure(mat, ultrasound::MatMapping::parse("angles=param.c;elements=", mapping),
                  {"1 angle(s)", "transmits dimension of RF has 3"});
    expectFailure(mat,
                  ultrasound::MatMapping::parse("order=samples,elements,elements,frames", mapping),
                  {"'elements' more than once"});
    expectFailure(mat,
                  ultrasound::MatMapping::parse("order=samples,channels,transmits,frames", mapping),
                  {"'channels'"});
    expectFailure(path("missing.mat"), mapping, {"missing.mat", "no such file"});
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ultrasound::MatMapping::parse("rf"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ultrasound::MatMapping::parse("fs="));
    QCOMPARE(ultrasound::MatMapping::parse(mapping.toString()).toString(), mapping.toString());
  }

  void focusedDelaysAreNotPlaneWaves() {
    const std::string mat = path("focused.mat");
    MatWriter writer(mat);
    QVERIFY(writer.ok());
    writer.add("RF", MAT_C_INT16, MAT_T_INT16, {32, 8}, std::vector<std::int16_t>(32 * 8, 3));
    std::vector<double> delays(8);
    for (int e = 0; e < 8; ++e) {
      const double x = (e - 3.5) * 0.3e-3;
      delays[static_cast<std::size_t>(e)] = (0.02 - std::hypot(x, 0.02)) / 1540;  // focus, 20 mm
    }
    writer.addStruct(
        "param", {{"fs", {20e6}}, {"fc", {5e6}}, {"c", {1540}}, {"t0", {0}}, {"pitch", {0.3e-3}}},
        {{"TXdelay", 1, 8, delays}});
    const ultrasound::MatMapping mapping =
        ultrasound::MatMapping::parse("bandwidth=;elements=;order=samples,elements,frames");
    expectFailure(mat, mapping, {"param.TXdelay", "not a plane wave"});
    // An int16 variable of one frame (MATLAB drops the trailing singleton) imports as is.
    const auto r = ultrasound::importMat(mat, ultrasound::MatMapping::parse("angles=0", mapping));
    QCOMPARE(r.frames, std::uint64_t{1});
    QCOMPARE(r.int16Samples.size(), std::size_t{32 * 8});
  }

  void badValuesAreRefusedWithTheReason() {
    const Synthetic p;
    const ultrasound::MatMapping mapping = syntheticMapping();
    const std::string good = path("literals.mat");
    writeSynthetic(good, p);
    // Numbers typed for the optional fields are used, not taken for absent variables; white
    // space around keys and values is ignored.
    const auto r = ultrasound::importMat(
        good, ultrasound::MatMapping::parse(" bandwidth = 35 ; elements=8;", mapping));
    QCOMPARE(r.acq.fractionalBandwidth, 0.35);
    expectFailure(good, ultrasound::MatMapping::parse("elements=5", mapping),
                  {"element count 5", "RF", ": 8"});
    expectFailure(good, ultrasound::MatMapping::parse("fs=-20e6", mapping),
                  {"sampling frequency", "positive", "-2e+07"});
    expectFailure(good, ultrasound::MatMapping::parse("c=nan", mapping), {"sound speed", "nan"});
    expectFailure(good, ultrasound::MatMapping::parse("bandwidth=-5", mapping),
                  {"bandwidth", "[0, 200]"});

    // RF that is not real numeric channel data, named with what it is.
    const std::string cell = path("cell.mat");
    {
      MatWriter writer(cell);
      writer.addCell("RF");
      writeParams(writer, p);
    }
    expectFailure(cell, mapping, {"RF", "1x1 cell", "real numeric"});
    const std::string logical = path("logical.mat");
    {
      MatWriter writer(logical);
      writer.add("RF", MAT_C_UINT8, MAT_T_UINT8, {40, 8, 3, 2},
                 std::vector<std::uint8_t>(40 * 8 * 3 * 2, 1), MAT_F_LOGICAL);
      writeParams(writer, p);
    }
    expectFailure(logical, mapping, {"RF", "logical"});
    // A NaN sample would spread through every image: refused, counted.
    const std::string withNan = path("nan.mat");
    {
      MatWriter writer(withNan);
      std::vector<float> samples(40 * 8 * 3 * 2, 1.5f);
      samples[100] = std::numeric_limits<float>::quiet_NaN();
      writer.add("RF", MAT_C_SINGLE, MAT_T_SINGLE, {40, 8, 3, 2}, samples);
      writeParams(writer, p);
    }
    expectFailure(withNan, mapping, {"RF", "1 of 1920 samples", "NaN"});
    // An empty delay matrix has no plane wave to fit.
    const std::string noDelays = path("nodelays.mat");
    {
      MatWriter writer(noDelays);
      writer.add("RF", MAT_C_INT16, MAT_T_INT16, {40, 8, 3, 2},
                 std::vector<std::int16_t>(40 * 8 * 3 * 2, 7));
      writeParams(writer, p, -1, 0);
    }
    expectFailure(noDelays, mapping, {"param.TXdelay", "[transmits x 8]", "0x8"});
  }

  void truncatedFilesAreRefusedNamingTheFile() {
    const std::string whole = path("whole.mat");
    writeSynthetic(whole, Synthetic{});
    const auto size = std::filesystem::file_size(whole);
    for (const double kept : {0.9, 0.5, 0.1}) {
      const std::string cut = path("cut.mat");
      std::filesystem::copy_file(whole, cut, std::filesystem::copy_options::overwrite_existing);
      std::filesystem::resize_file(cut, static_cast<std::uintmax_t>(kept * double(size)));
      expectFailure(cut, syntheticMapping(), {"cut.mat", "truncated"});
    }
  }

  void progressIsReportedAndCanAbandonTheImport() {
    const std::string mat = path("progress.mat");
    writeSynthetic(mat, Synthetic{});
    std::vector<double> fractions;
    ultrasound::importMat(mat, syntheticMapping(), [&](double fraction, const std::string& what) {
      QVERIFY(!what.empty());
      fractions.push_back(fraction);
    });
    QVERIFY(fractions.size() >= 4);  // reading, checking, one per frame, done
    QCOMPARE(fractions.front(), 0.0);
    QCOMPARE(fractions.back(), 1.0);
    QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));
    struct Abandoned {};
    int calls = 0;
    QVERIFY_THROWS_EXCEPTION(
        Abandoned, ultrasound::importMat(mat, syntheticMapping(), [&](double, const auto&) {
          if (++calls == 3) {
            throw Abandoned{};
          }
        }));
  }

  void matlabFilesAreRecognisedByTheirHeader() {
    const std::string v73 = path("recording73.h5");  // a v7.3 file under an HDF5 name
    writeSynthetic(v73, Synthetic{}, false, MAT_FT_MAT73);
    QVERIFY(acquire::isMatFile(v73));
    const std::string v5 = path("recording5.bin");
    writeSynthetic(v5, Synthetic{});
    QVERIFY(acquire::isMatFile(v5));
    QVERIFY(acquire::isMatFile("/nowhere/x.MAT"));
    QVERIFY(!acquire::isMatFile("/nowhere/x.h5"));
    // The source factory then imports it with the mapping.
    const auto source = acquire::openSource(v73, 0, {}, syntheticMapping());
    QCOMPARE(source->frameCount(), std::uint64_t{2});
  }
};

QTEST_GUILESS_MAIN(TestMatImport)
#include "test_mat_import.moc"

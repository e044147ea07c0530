// RfFileSource against files written by the plain HDF5 C API (support/rf_file_fixture): good files
// read back bit-exactly; every damaged file fails in the constructor (or, for damaged sample
// data, in readFrame) with a SourceError naming the file and the object. Nothing crashes.
#include <hdf5.h>

#include <QtTest>

#include <cstring>
#include <string>
#include <vector>

#include "registry/source_factory.hpp"
#include "support/rf_file_fixture.hpp"
#include "ultrasound/rf_file_source.hpp"

using namespace cineflow::acquire;
using namespace cineflow::ultrasound;
using cineflow::test::RfDefect;
using cineflow::test::RfFileSpec;

class TestRfFileSource : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;

  std::string file(const std::string& name) const {
    return dir_.filePath(QString::fromStdString(name)).toStdString();
  }

  // Expects construction to throw SourceError mentioning the file name and every one of `parts`.
  void expectSourceError(const std::string& path, const std::vector<std::string>& parts) {
    try {
      RfFileSource source(path);
      QFAIL(("no error for " + path).c_str());
    } catch (const SourceError& e) {
      const std::string message = e.what();
      qInfo("%s", message.c_str());  // the log shows what an operator would read
      const std::string name = std::filesystem::path(path).filename().string();
      QVERIFY2(message.find(name) != std::string::npos, message.c_str());
      for (const std::string& part : parts) {
        QVERIFY2(message.find(part) != std::string::npos,
                 (message + " [expected: " + part + "]").c_str());
      }
    }
  }

  void checkRoundTrip(const RfFileSpec& spec, const std::string& name) {
    const std::string path = file(name);
    const auto written = cineflow::test::writeRfFile(path, spec);
    RfFileSource source(path, 25.0);
    const AcquisitionParams& p = source.params();
    QCOMPARE(source.frameCount(), std::uint64_t(spec.frames));
    QCOMPARE(p.transmits(), spec.transmits);
    QCOMPARE(p.elements(), spec.elements);
    QCOMPARE(p.samples, spec.samples);
    QCOMPARE(p.samplingFrequencyHz, spec.fs);
    QCOMPARE(p.centerFrequencyHz, spec.f0);
    QCOMPARE(p.soundSpeedMPerS, spec.c);
    QCOMPARE(p.t0S, spec.t0);
    QCOMPARE(p.fractionalBandwidth, spec.fractionalBandwidthPercent / 100);
    QCOMPARE(p.anglesRad, written.anglesRad);
    QCOMPARE(p.elementXM, written.elementXM);
    QCOMPARE(source.frameRateHz(), 25.0);
    QCOMPARE(source.sampleType(), spec.float32 ? SampleType::Float32 : SampleType::Int16);
    QCOMPARE(source.frameBytes(), written.frameSamples * (spec.float32 ? 4u : 2u));
    QVERIFY(source.describe().find(name) != std::string::npos);

    std::vector<std::byte> frame(source.frameBytes());
    // Out of order on purpose: each read is an independent hyperslab.
    for (int f : {2, 0, 1}) {
      SliceInfo slice;
      source.readFrame(static_cast<std::uint64_t>(f), frame, slice);
      const std::size_t offset = written.frameSamples * static_cast<std::size_t>(f);
      const void* expected = spec.float32
                                 ? static_cast<const void*>(written.float32Samples.data() + offset)
                                 : static_cast<const void*>(written.int16Samples.data() + offset);
      QVERIFY2(std::memcmp(frame.data(), expected, frame.size()) == 0,
               ("frame " + std::to_string(f) + " differs").c_str());
      QCOMPARE(slice.elevationM,
               spec.withElevation ? written.elevationM[static_cast<std::size_t>(f)] : 0.0);
    }
  }

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void int16RoundTripIsBitExact() { checkRoundTrip(RfFileSpec{}, "good_int16.h5"); }

  void cineflowOutputsAreNamed_data() {
    QTest::addColumn<QString>("schema");
    QTest::addColumn<QString>("expected");
    QTest::newRow("saved volume") << "cineflow.volume/1"
                                  << "File > Open saved volume";
    QTest::newRow("B-mode output") << "cineflow.bmode/1"
                                   << "not channel data";
    QTest::newRow("other HDF5") << "someone.else/3"
                                << "\"someone.else/3\", which Cineflow does not read and no /rf "
                                   "dataset; Cineflow reads cineflow.rf/1 (RF recordings";
  }
  void cineflowOutputsAreNamed() {
    // A file without /rf whose root says what it is: the message names it instead of "/rf".
    QFETCH(QString, schema);
    QFETCH(QString, expected);
    const std::string path = file("not_a_recording.h5");
    const hid_t h5 = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    QVERIFY(h5 >= 0);
    const hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, H5T_VARIABLE);
    const hid_t space = H5Screate(H5S_SCALAR);
    const hid_t attribute = H5Acreate2(h5, "schema", type, space, H5P_DEFAULT, H5P_DEFAULT);
    const QByteArray text = schema.toUtf8();
    const char* value = text.constData();
    QVERIFY(H5Awrite(attribute, type, &value) >= 0);
    H5Aclose(attribute);
    H5Sclose(space);
    H5Tclose(type);
    H5Fclose(h5);
    try {
      RfFileSource source(path);
      QFAIL("opened a file without /rf");
    } catch (const cineflow::acquire::SourceError& e) {
      QVERIFY2(QString(e.what()).contains(expected), e.what());
    }
  }

  void aFileWithoutSchemaIsToldWhatCineflowReads() {
    // An HDF5 file with data but no schema attribute, opened as any input is (the factory): the
    // message names the schemas Cineflow reads, not the RF reader's missing /rf alone.
    const std::string path = file("no_schema.h5");
    const hid_t h5 = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    QVERIFY(h5 >= 0);
    const hsize_t dims[1] = {16};
    const hid_t space = H5Screate_simple(1, dims, nullptr);
    const hid_t data =
        H5Dcreate2(h5, "/data", H5T_NATIVE_FLOAT, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dclose(data);
    H5Sclose(space);
    H5Fclose(h5);
    try {
      cineflow::acquire::openSource(path);
      QFAIL("opened a file without a schema");
    } catch (const cineflow::acquire::SourceError& e) {
      const QString message = e.what();
      for (const char* expected :
           {"no schema attribute", "cineflow.rf/1", "cineflow.oct/1", "MATLAB"}) {
        QVERIFY2(message.contains(expected), e.what());
      }
      QVERIFY2(!message.contains("/rf: missing"), e.what());
    }
  }

  void float32RoundTripIsBitExact() {
    RfFileSpec spec;
    spec.float32 = true;
    spec.seed = 9;
    checkRoundTrip(spec, "good_float32.h5");
  }

  void attributesOnRootAreAccepted() {
    RfFileSpec spec;
    spec.attributesOnRoot = true;
    spec.withElevation = false;
    spec.fractionalBandwidthPercent = -1;  // omitted: measured from the echoes
    const std::string path = file("root_attributes.h5");
    cineflow::test::writeRfFile(path, spec);
    RfFileSource source(path);
    QCOMPARE(source.params().samplingFrequencyHz, spec.fs);
    // The fixture's rows are a tone at f0 decaying over the row, plus noise: a narrow band.
    QVERIFY(source.params().bandwidthMeasured);
    QVERIFY2(
        source.params().fractionalBandwidth > 0.02 && source.params().fractionalBandwidth < 0.5,
        qPrintable(QString::number(source.params().fractionalBandwidth)));
    QVERIFY(source.elevations().empty());
    QCOMPARE(source.frameRateHz(), 20.0);
  }

  void defectsAreReported_data() {
    QTest::addColumn<int>("defect");
    for (RfDefect d :
         {RfDefect::MissingRfDataset, RfDefect::RfIsGroup, RfDefect::MissingSchema,
          RfDefect::WrongSchema, RfDefect::MissingAttribute, RfDefect::AttributeWrongType,
          RfDefect::NonPositiveAttribute, RfDefect::WrongRank, RfDefect::UnsupportedDtype,
          RfDefect::MissingAngles, RfDefect::AnglesShapeMismatch, RfDefect::ElementsShapeMismatch,
          RfDefect::ElementsNotIncreasing, RfDefect::ElevationShapeMismatch,
          RfDefect::ZeroFrames}) {
      QTest::newRow(cineflow::test::toString(d)) << static_cast<int>(d);
    }
  }
  void defectsAreReported() {
    QFETCH(int, defect);
    RfFileSpec spec;
    spec.defect = static_cast<RfDefect>(defect);
    const std::string path =
        file(std::string("defect_") + cineflow::test::toString(spec.defect) + ".h5");
    cineflow::test::writeRfFile(path, spec);
    std::vector<std::string> parts = {cineflow::test::defectObject(spec.defect)};
    // What was found, not only what was expected.
    if (spec.defect == RfDefect::UnsupportedDtype) {
      parts.push_back("int32");
    } else if (spec.defect == RfDefect::AttributeWrongType) {
      parts.push_back("string");
    } else if (spec.defect == RfDefect::WrongSchema) {
      parts.push_back("cineflow.rf/2");
    } else if (spec.defect == RfDefect::WrongRank) {
      parts.push_back("rank 4");
    } else if (spec.defect == RfDefect::ZeroFrames) {
      parts.push_back("zero frames");
    }
    expectSourceError(path, parts);
  }

  void damagedFrameDataFailsInReadFrame() {
    RfFileSpec spec;
    spec.defect = RfDefect::CorruptFrameData;
    const std::string path = file("corrupt_chunk.h5");
    const auto written = cineflow::test::writeRfFile(path, spec);
    RfFileSource source(path);  // metadata is intact
    std::vector<std::byte> frame(source.frameBytes());
    SliceInfo slice;
    source.readFrame(0, frame, slice);
    QVERIFY(std::memcmp(frame.data(), written.int16Samples.data(), frame.size()) == 0);
    try {
      source.readFrame(1, frame, slice);
      QFAIL("corrupt frame 1 was read without an error");
    } catch (const SourceError& e) {
      const std::string message = e.what();
      qInfo("%s", message.c_str());
      QVERIFY2(message.find("corrupt_chunk.h5") != std::string::npos, message.c_str());
      QVERIFY2(message.find("frame 1") != std::string::npos, message.c_str());
    }
    source.readFrame(2, frame, slice);  // the source stays usable after a bad frame
  }

  void readFrameChecksItsArguments() {
    const std::string path = file("args.h5");
    cineflow::test::writeRfFile(path, RfFileSpec{});
    RfFileSource source(path);
    std::vector<std::byte> frame(source.frameBytes());
    SliceInfo slice;
    QVERIFY_THROWS_EXCEPTION(SourceError, source.readFrame(3, frame, slice));
    std::vector<std::byte> small(source.frameBytes() - 2);
    QVERIFY_THROWS_EXCEPTION(SourceError, source.readFrame(0, small, slice));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, RfFileSource(path, -1.0));
  }

  void missingFileIsReported() { expectSourceError(file("does_not_exist.h5"), {"not found"}); }

  void directoryIsReported() {
    const std::string path = file("a_directory.h5");
    std::filesystem::create_directory(path);
    expectSourceError(path, {"directory"});
  }

  void truncatedFileIsReported() {
    const std::string path = file("truncated.h5");
    cineflow::test::writeRfFile(path, RfFileSpec{});
    cineflow::test::truncateFile(path, 0.5);
    expectSourceError(path, {});
  }

  void randomBytesAreReported() {
    const std::string path = file("random.h5");
    cineflow::test::writeRandomBytes(path, 64 * 1024, 5);
    expectSourceError(path, {"not an HDF5 file"});
    const std::string empty = file("empty.h5");
    cineflow::test::writeRandomBytes(empty, 0, 5);
    expectSourceError(empty, {});
  }
};

QTEST_APPLESS_MAIN(TestRfFileSource)
#include "test_rf_file_source.moc"

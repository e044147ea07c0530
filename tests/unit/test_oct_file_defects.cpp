// cineflow.oct/1 recordings that do not hold what the schema says: each is made from a good one
// (written by oct_writer.hpp) with the plain HDF5 C API, and each fails in OctFileSource's
// constructor with a SourceError naming the file, the object and what was expected versus found;
// Cineflow's other files are named as what they are; damaged frame data fails in readFrame.
#include <hdf5.h>

#include <QtTest>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "modality/modality.hpp"
#include "oct/oct_file_source.hpp"
#include "oct/oct_writer.hpp"
#include "registry/source_factory.hpp"
#include "support/oct_file_fixture.hpp"
#include "support/rf_file_fixture.hpp"

using namespace cineflow;
using oct::OctAcquisition;
using oct::OctFileSource;

namespace {

using Edit = std::function<void(const std::string& path)>;

struct Defect {
  const char* name;
  Edit edit;
  std::vector<std::string> expected;  // each must appear in the message
};

std::vector<Defect> defects() {
  const OctAcquisition acq = test::someOctAcquisition();
  const auto s = static_cast<hsize_t>(acq.samples);
  const auto a = static_cast<hsize_t>(acq.ascans);
  const auto edit = [](std::function<void(const test::PlainEditor&)> change) -> Edit {
    return [change](const std::string& path) { change(test::PlainEditor(path)); };
  };
  std::vector<double> nonMonotonic = acq.wavelengthM;
  std::swap(nonMonotonic[10], nonMonotonic[11]);
  return {
      {"not HDF5",
       [](const std::string& path) { test::writeRandomBytes(path, 4096, 5); },
       {"not an HDF5 file"}},
      {"truncated",
       [](const std::string& path) { test::truncateFile(path, 0.5); },
       {"damaged or truncated"}},
      {"schema missing",
       edit([](const test::PlainEditor& f) { f.remove("schema"); }),
       {"attribute schema: missing", "cineflow.oct/1"}},
      {"schema wrong",
       edit([](const test::PlainEditor& f) { f.setString("schema", "cineflow.oct/2"); }),
       {"attribute schema", "expected \"cineflow.oct/1\"", "cineflow.oct/2"}},
      {"schema not a string",
       edit([](const test::PlainEditor& f) { f.setNumber("schema", 1); }),
       {"attribute schema", "expected a string"}},
      {"saved volume",
       edit([](const test::PlainEditor& f) { f.setString("schema", "cineflow.volume/1"); }),
       {"saved volume", "not an OCT recording"}},
      {"B-mode output",
       edit([](const test::PlainEditor& f) { f.setString("schema", "cineflow.bmode/1"); }),
       {"B-mode output", "not an OCT recording"}},
      {"spectra missing",
       edit([](const test::PlainEditor& f) { f.remove("spectra"); }),
       {"/spectra: missing"}},
      {"spectra a group",
       edit([](const test::PlainEditor& f) {
         f.remove("spectra");
         H5Gclose(H5Gcreate2(f.file(), "spectra", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
       }),
       {"/spectra", "expected a dataset"}},
      {"spectra rank 2",
       edit([a, s](const test::PlainEditor& f) {
         f.replaceDataset("spectra", H5T_STD_U16LE, {a, s});
       }),
       {"/spectra", "rank 3", "[24][64]"}},
      {"spectra int16",
       edit([a, s](const test::PlainEditor& f) {
         f.replaceDataset("spectra", H5T_STD_I16LE, {2, a, s});
       }),
       {"/spectra", "int16", "expected uint16"}},
      {"spectra float32",
       edit([a, s](const test::PlainEditor& f) {
         f.replaceDataset("spectra", H5T_IEEE_F32LE, {2, a, s});
       }),
       {"/spectra", "float32"}},
      {"zero frames",
       edit([a, s](const test::PlainEditor& f) {
         f.replaceDataset("spectra", H5T_STD_U16LE, {0, a, s});
       }),
       {"/spectra", "zero frames"}},
      {"too few samples",
       edit([a](const test::PlainEditor& f) {
         f.replaceDataset("spectra", H5T_STD_U16LE, {2, a, 8});
       }),
       {"/spectra", "16 to", "[2][24][8]"}},
      {"wavelengths missing",
       edit([](const test::PlainEditor& f) { f.remove("wavelength_m"); }),
       {"/wavelength_m: missing", "/k_rad_per_m"}},
      {"wavelengths too short",
       edit([s, acq](const test::PlainEditor& f) {
         std::vector<double> shorter(acq.wavelengthM.begin(), acq.wavelengthM.end() - 1);
         f.replaceDataset("wavelength_m", H5T_IEEE_F64LE, {s - 1}, shorter);
       }),
       {"/wavelength_m", "holds 63 values", "64 samples"}},
      {"wavelengths not monotonic",
       edit([s, nonMonotonic](const test::PlainEditor& f) {
         f.replaceDataset("wavelength_m", H5T_IEEE_F64LE, {s}, nonMonotonic);
       }),
       {"/wavelength_m", "strictly monotonic", "sample 11"}},
      {"wavelengths not optical",
       edit([s, acq](const test::PlainEditor& f) {
         std::vector<double> nanometres = acq.wavelengthM;
         for (double& value : nanometres) {
           value *= 1e9;
         }
         f.replaceDataset("wavelength_m", H5T_IEEE_F64LE, {s}, nanometres);
       }),
       {"not an optical wavelength"}},
      {"both tables",
       edit([s, acq](const test::PlainEditor& f) {
         f.replaceDataset("k_rad_per_m", H5T_IEEE_F64LE, {s}, acq.wavelengthM);
       }),
       {"/wavelength_m and /k_rad_per_m", "found both"}},
      {"bit depth 10",
       edit([](const test::PlainEditor& f) { f.setNumber("bit_depth", 10); }),
       {"attribute bit_depth", "expected 12 or 16", "found 10"}},
      {"bit depth missing",
       edit([](const test::PlainEditor& f) { f.remove("bit_depth"); }),
       {"attribute bit_depth: missing"}},
      {"more B-scans per volume than frames",
       edit([](const test::PlainEditor& f) { f.setNumber("bscans_per_volume", 5); }),
       {"attribute bscans_per_volume", "5 B-scans per volume", "only 4 frames"}},
      {"B-scans per volume not whole",
       edit([](const test::PlainEditor& f) { f.setNumber("bscans_per_volume", 1.5); }),
       {"attribute bscans_per_volume", "whole number", "1.5"}},
      {"flyback fills the B-scan",
       edit([](const test::PlainEditor& f) { f.setNumber("flyback_ascans", 24); }),
       {"attribute flyback_ascans", "24 flyback A-scans", "[0, 23]"}},
      {"bidirectional 2",
       edit([](const test::PlainEditor& f) { f.setNumber("bidirectional", 2); }),
       {"attribute bidirectional", "[0, 1]", "found 2"}},
      {"lateral step missing",
       edit([](const test::PlainEditor& f) { f.remove("lateral_step_m"); }),
       {"attribute lateral_step_m: missing"}},
      {"centre wavelength a string",
       edit([](const test::PlainEditor& f) { f.setString("centre_wavelength_m", "840 nm"); }),
       {"attribute centre_wavelength_m", "expected a number, found variable-length string"}},
      {"negative bandwidth",
       edit([](const test::PlainEditor& f) { f.setNumber("bandwidth_m", -1e-9); }),
       {"attribute bandwidth_m", ">= 0"}},
      {"dispersion not finite",
       edit([](const test::PlainEditor& f) { f.setNumber("dispersion_a2_rad", NAN); }),
       {"attribute dispersion_a2_rad", "finite"}},
  };
}

}  // namespace

class TestOctFileDefects : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;

  std::string file(const std::string& name) const {
    return dir_.filePath(QString::fromStdString(name)).toStdString();
  }

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void defectsAreReported_data() {
    QTest::addColumn<int>("index");
    const std::vector<Defect> all = defects();
    for (std::size_t i = 0; i < all.size(); ++i) {
      QTest::newRow(all[i].name) << static_cast<int>(i);
    }
  }

  void defectsAreReported() {
    QFETCH(int, index);
    const Defect defect = defects()[static_cast<std::size_t>(index)];
    const std::string name = "defect_" + std::to_string(index) + ".h5";
    const std::string path = file(name);
    test::writeGoodOctRecording(path);
    defect.edit(path);
    try {
      OctFileSource source(path);
      QFAIL(qPrintable(QString("no error for ") + defect.name));
    } catch (const acquire::SourceError& e) {
      const std::string message = e.what();
      qInfo("%s", message.c_str());  // the log shows what an operator would read
      QVERIFY2(message.find(name) != std::string::npos, message.c_str());
      for (const std::string& part : defect.expected) {
        QVERIFY2(message.find(part) != std::string::npos,
                 (message + " [expected: " + part + "]").c_str());
      }
    }
  }

  void otherRecordingsSayWhatTheyAre() {
    // An RF recording (schema on /rf, as the shipped ones) opened as OCT says what it is; the
    // factory opens it as ultrasound.
    const std::string path = file("rf.h5");
    test::writeRfFile(path, test::RfFileSpec{});
    try {
      OctFileSource source(path);
      QFAIL("an RF recording opened as OCT");
    } catch (const acquire::SourceError& e) {
      QVERIFY2(QString(e.what()).contains("rf.h5") && QString(e.what()).contains("RF recording"),
               e.what());
    }
    const auto source = acquire::openSource(path);
    QCOMPARE(std::string(source->modality().name()), std::string("ultrasound"));
  }

  void missingFileAndFolder() {
    for (const std::string& path : {file("absent.h5"), dir_.path().toStdString()}) {
      try {
        OctFileSource source(path);
        QFAIL("opened nothing");
      } catch (const acquire::SourceError& e) {
        QVERIFY2(QString(e.what()).contains(QString::fromStdString(path)), e.what());
      }
    }
  }

  void damagedFrameDataFailsInReadFrame() {
    // A chunk overwritten after the metadata: the constructor passes, the read names the frame.
    const std::string path = file("damaged_chunk.h5");
    const OctAcquisition acq = test::someOctAcquisition();
    std::vector<std::uint16_t> spectra = test::randomSpectra(acq, 4, 13);
    {
      // gzip chunks, so that overwriting one makes it undecodable (a plain chunk reads any bytes).
      const hid_t f = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
      const hsize_t dims[3] = {4, 24, 64}, chunk[3] = {1, 24, 64};
      const hid_t space = H5Screate_simple(3, dims, nullptr);
      const hid_t properties = H5Pcreate(H5P_DATASET_CREATE);
      H5Pset_chunk(properties, 3, chunk);
      H5Pset_deflate(properties, 6);
      const hid_t dataset =
          H5Dcreate2(f, "spectra", H5T_STD_U16LE, space, H5P_DEFAULT, properties, H5P_DEFAULT);
      H5Dwrite(dataset, H5T_NATIVE_UINT16, H5S_ALL, H5S_ALL, H5P_DEFAULT, spectra.data());
      const hsize_t start[3] = {1, 0, 0};
      haddr_t offset = 0;
      hsize_t size = 0;
      H5Dget_chunk_info_by_coord(dataset, start, nullptr, &offset, &size);
      H5Dclose(dataset);
      H5Pclose(properties);
      H5Sclose(space);
      const hsize_t n[1] = {64};
      const hid_t wspace = H5Screate_simple(1, n, nullptr);
      const hid_t wl = H5Dcreate2(f, "wavelength_m", H5T_IEEE_F64LE, wspace, H5P_DEFAULT,
                                  H5P_DEFAULT, H5P_DEFAULT);
      H5Dwrite(wl, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, acq.wavelengthM.data());
      H5Dclose(wl);
      H5Sclose(wspace);
      H5Fclose(f);
      {
        const test::PlainEditor e(path);
        e.setString("schema", "cineflow.oct/1");
        for (const auto& [name, value] :
             std::vector<std::pair<const char*, double>>{{"bit_depth", 12},
                                                         {"centre_wavelength_m", 840e-9},
                                                         {"bscans_per_volume", 0},
                                                         {"bidirectional", 0},
                                                         {"flyback_ascans", 0},
                                                         {"lateral_step_m", 1e-5},
                                                         {"elevation_step_m", 0}}) {
          e.setNumber(name, value);
        }
      }
      std::fstream bytes(path, std::ios::in | std::ios::out | std::ios::binary);
      bytes.seekp(static_cast<std::streamoff>(offset));
      const std::string garbage(static_cast<std::size_t>(size), '\x5a');
      bytes.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
    }
    OctFileSource source(path);
    std::vector<std::byte> frame(source.frameBytes());
    acquire::SliceInfo slice;
    source.readFrame(0, frame, slice);
    QVERIFY(std::memcmp(frame.data(), spectra.data(), frame.size()) == 0);
    try {
      source.readFrame(1, frame, slice);
      QFAIL("a damaged frame was read without an error");
    } catch (const acquire::SourceError& e) {
      QVERIFY2(QString(e.what()).contains("damaged_chunk.h5") &&
                   QString(e.what()).contains("/spectra: reading frame 1"),
               e.what());
    }
    try {
      source.readFrame(4, frame, slice);
      QFAIL("frame 4 of 4 was read");
    } catch (const acquire::SourceError& e) {
      QVERIFY2(QString(e.what()).contains("out of range"), e.what());
    }
  }
};

QTEST_GUILESS_MAIN(TestOctFileDefects)
#include "test_oct_file_defects.moc"

// cineflow.oct/1 recordings: seeded random spectra written by the writer (oct_writer.hpp) replay
// bit-exactly through the source factory, which picks OctFileSource by the file's schema; the
// acquisition (wavelength or k table, scan, dispersion) round-trips; the writer refuses what the
// schema cannot hold, and a failed write leaves no file; and the OCT simulator recorded and
// replayed gives the simulator's own frames. (Damaged files: test_oct_file_defects.cpp.)
#include <hdf5.h>
#include <unistd.h>

#include <QtTest>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <numbers>
#include <string>
#include <vector>

#include "modality/modality.hpp"
#include "oct/oct_file_source.hpp"
#include "oct/oct_modality.hpp"
#include "oct/oct_simulator.hpp"
#include "oct/oct_writer.hpp"
#include "registry/source_factory.hpp"
#include "store/store_error.hpp"
#include "support/oct_file_fixture.hpp"
#include "support/plain_hdf5.hpp"

using namespace cineflow;
using oct::OctAcquisition;
using oct::OctFileSource;

class TestOctFileSource : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;

  std::string file(const std::string& name) const {
    return dir_.filePath(QString::fromStdString(name)).toStdString();
  }

  static void compareFrames(acquire::FrameSource& source,
                            const std::vector<std::uint16_t>& expected) {
    std::vector<std::byte> frame(source.frameBytes());
    const std::size_t perFrame = frame.size() / sizeof(std::uint16_t);
    // Out of order on purpose: each read is an independent hyperslab.
    for (std::uint64_t f : {3u, 0u, 2u, 1u}) {
      acquire::SliceInfo slice;
      source.readFrame(f, frame, slice);
      QVERIFY2(std::memcmp(frame.data(), expected.data() + f * perFrame, frame.size()) == 0,
               qPrintable(QString("frame %1 differs").arg(f)));
    }
  }

  static void checkAcquisition(const OctFileSource& source) {
    const OctAcquisition expected = test::someOctAcquisition();
    const OctAcquisition& read = source.acquisition();
    QCOMPARE(read.samples, expected.samples);
    QCOMPARE(read.ascans, expected.ascans);
    QCOMPARE(read.bitDepth, expected.bitDepth);
    QCOMPARE(read.wavelengthM, expected.wavelengthM);  // exact: float64 both ways
    QCOMPARE(read.centreWavelengthM, expected.centreWavelengthM);
    QCOMPARE(read.bandwidthM, expected.bandwidthM);
    QCOMPARE(read.bscansPerVolume, expected.bscansPerVolume);
    QCOMPARE(read.bidirectional, expected.bidirectional);
    QCOMPARE(read.flybackAscans, expected.flybackAscans);
    QCOMPARE(read.lateralStepM, expected.lateralStepM);
    QCOMPARE(read.elevationStepM, expected.elevationStepM);
    QCOMPARE(read.lineRateHz, expected.lineRateHz);
    QCOMPARE(source.frameRateHz(), 20.0);  // the default replay rate
    QVERIFY(source.recordedDispersion().has_value());
    QCOMPARE(source.recordedDispersion()->a2Rad, 12.5);
    QCOMPARE(source.recordedDispersion()->a3Rad, -3.25);
    QVERIFY(!source.wavelengthsFromK());
  }

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void randomSpectraReplayBitExactThroughTheFactory() {
    const std::string path = file("good.h5");
    const std::vector<std::uint16_t> spectra = test::writeGoodOctRecording(path);
    QVERIFY(std::any_of(spectra.begin(), spectra.end(), [](auto v) { return v > 4095; }));
    const auto source = acquire::openSource(path, 25.0);
    auto* replay = dynamic_cast<OctFileSource*>(source.get());
    QVERIFY2(replay != nullptr, "the factory did not open an OCT recording as OCT");
    QCOMPARE(std::string(source->modality().name()), std::string("oct"));
    QCOMPARE(source->frameCount(), std::uint64_t(4));
    QCOMPARE(source->frameRateHz(), 25.0);
    QCOMPARE(source->frameBytes(), std::size_t(24 * 64 * 2));
    QCOMPARE(source->framesPerVolume(), 3);
    QCOMPARE(source->describe(), std::string("good.h5 (4 frames, 24 A-scans x 64 samples)"));
    compareFrames(*source, spectra);

    // Slices of a volume of 3: frame 3 starts the second volume; elevations centred.
    std::vector<std::byte> frame(source->frameBytes());
    acquire::SliceInfo slice;
    source->readFrame(2, frame, slice);
    QCOMPARE(slice.sliceIndex, 2);
    QCOMPARE(slice.elevationM, 11e-6);
    source->readFrame(3, frame, slice);
    QCOMPARE(slice.sliceIndex, 0);
    QCOMPARE(slice.elevationM, -11e-6);
  }

  void acquisitionRoundTrips() {
    const std::string path = file("fields.h5");
    test::writeGoodOctRecording(path);
    {
      // (Closed before the plain reader opens the file: HDF5 refuses a second open with other
      // file-locking flags.)
      const OctFileSource source(path);
      checkAcquisition(source);
    }
    // As an outside tool sees it: counts as integers, the schema, units.
    const test::PlainFile plain(path);
    QCOMPARE(test::readString(plain.id, "schema"), std::string("cineflow.oct/1"));
    QCOMPARE(test::readString(plain.id, "source"), std::string("test"));
    QCOMPARE(test::datasetUnits(plain.id, "wavelength_m"), std::string("m"));
    for (const char* name : {"bit_depth", "bscans_per_volume", "bidirectional", "flyback_ascans"}) {
      const hid_t attribute = H5Aopen(plain.id, name, H5P_DEFAULT);
      const hid_t type = H5Aget_type(attribute);
      QVERIFY2(H5Tget_class(type) == H5T_INTEGER, name);
      H5Tclose(type);
      H5Aclose(attribute);
    }
  }

  void withoutOptionalAttributes() {
    const std::string path = file("minimal.h5");
    test::writeGoodOctRecording(path);
    {
      const test::PlainEditor f(path);
      for (const char* name :
           {"bandwidth_m", "line_rate_hz", "dispersion_a2_rad", "dispersion_a3_rad", "source"}) {
        f.remove(name);
      }
      f.setNumber("bscans_per_volume", 0);  // B-scans only
    }
    OctFileSource source(path);
    QCOMPARE(source.acquisition().bandwidthM, 0.0);
    QCOMPARE(source.acquisition().lineRateHz, 0.0);
    QCOMPARE(source.framesPerVolume(), 0);
    QVERIFY(!source.recordedDispersion().has_value());
    std::vector<std::byte> frame(source.frameBytes());
    acquire::SliceInfo slice;
    source.readFrame(3, frame, slice);
    QCOMPARE(slice.sliceIndex, 0);
    QCOMPARE(slice.elevationM, 0.0);
  }

  void kTableVariant() {
    const std::string path = file("k_table.h5");
    const std::vector<std::uint16_t> spectra = test::writeGoodOctRecording(path, 12);
    const OctAcquisition expected = test::someOctAcquisition();
    std::vector<double> k(expected.wavelengthM.size());
    for (std::size_t i = 0; i < k.size(); ++i) {
      k[i] = 2 * std::numbers::pi / expected.wavelengthM[i];
    }
    {
      const test::PlainEditor f(path);
      f.remove("wavelength_m");
      f.replaceDataset("k_rad_per_m", H5T_IEEE_F64LE, {k.size()}, k);
    }
    auto source = acquire::openSource(path);
    const auto& replay = dynamic_cast<const OctFileSource&>(*source);
    QVERIFY(replay.wavelengthsFromK());
    const std::vector<double>& read = replay.acquisition().wavelengthM;
    QCOMPARE(read.size(), expected.wavelengthM.size());
    for (std::size_t i = 0; i < read.size(); ++i) {
      // 2 pi / (2 pi / lambda): a few ulps.
      QVERIFY2(std::abs(read[i] - expected.wavelengthM[i]) <= 1e-15 * expected.wavelengthM[i],
               qPrintable(QString("sample %1").arg(i)));
    }
    compareFrames(*source, spectra);
  }

  void writerRefusesWhatTheSchemaCannotHold() {
    const OctAcquisition acq = test::someOctAcquisition();
    const std::vector<std::uint16_t> spectra = test::randomSpectra(acq, 3, 14);
    const auto refused = [&](const std::string& name, const OctAcquisition& a,
                             std::span<const std::uint16_t> data, std::uint64_t frames,
                             const store::AttributeMap& extra, const char* expected) {
      const std::string path = file(name);
      try {
        oct::writeOctRecording(path, a, data, frames, extra);
        QFAIL(qPrintable(QString::fromStdString(name) + " was written"));
      } catch (const store::StoreError& e) {
        QVERIFY2(QString(e.what()).contains(QString::fromStdString(name)) &&
                     QString(e.what()).contains(expected),
                 e.what());
      }
      QVERIFY(!std::filesystem::exists(path));
    };
    refused("short.h5", acq, std::span(spectra).first(spectra.size() - 1), 3, {}, "expected");
    refused("no_frames.h5", acq, {}, 0, {}, "at least one frame");
    OctAcquisition bad = acq;
    bad.flybackAscans = bad.ascans;
    refused("flyback.h5", bad, spectra, 3, {}, "flyback");
    bad = acq;
    bad.bitDepth = 14;
    refused("depth14.h5", bad, spectra, 3, {}, "12- or 16-bit");
    bad = acq;
    bad.wavelengthM.pop_back();
    refused("table.h5", bad, std::span(spectra), 3, {}, "wavelength table");
    refused("clash.h5", acq, spectra, 3, {{"bit_depth", std::int64_t{16}}}, "bit_depth");
    bad = acq;
    bad.bscansPerVolume = 4;  // three frames: not one volume, which the reader would refuse
    refused("volume.h5", bad, spectra, 3, {}, "4 B-scans per volume");
    QVERIFY(!test::anyPartialFile(dir_.path().toStdString()));
  }

  void failedWritesLeaveNoFile() {
    const OctAcquisition acq = test::someOctAcquisition();
    const std::vector<std::uint16_t> spectra = test::randomSpectra(acq, 3, 15);
    const std::string missing = file("no_such_folder/out.h5");
    try {
      oct::writeOctRecording(missing, acq, spectra, 3);
      QFAIL("written into a missing folder");
    } catch (const store::StoreError& e) {
      QVERIFY2(QString(e.what()).contains("does not exist"), e.what());
    }
    QVERIFY(!std::filesystem::exists(std::filesystem::path(missing).parent_path()));

    // A full disk part-way (file size limit): the frames do not fit.
    const std::string full = file("full.h5");
    const std::vector<std::uint16_t> many = test::randomSpectra(acq, 200, 16);  // 600 KiB
    {
      const test::FileSizeLimit limit(128 * 1024);
      QVERIFY(limit.active());
      try {
        oct::writeOctRecording(full, acq, many, 200);
        QFAIL("written past the file size limit");
      } catch (const store::StoreError& e) {
        qInfo("%s", e.what());
        QVERIFY2(QString(e.what()).contains("full.h5"), e.what());
      }
    }
    QVERIFY(!std::filesystem::exists(full));

    // A read-only folder (root writes anyway: then only the file's absence elsewhere is checked).
    const std::filesystem::path locked = file("locked");
    std::filesystem::create_directory(locked);
    std::filesystem::permissions(
        locked, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
    if (::access(locked.c_str(), W_OK) != 0) {
      try {
        oct::writeOctRecording(locked / "out.h5", acq, spectra, 3);
        QFAIL("written into a read-only folder");
      } catch (const store::StoreError& e) {
        QVERIFY2(QString(e.what()).contains("not writable"), e.what());
      }
      QVERIFY(std::filesystem::is_empty(locked));
    } else {
      qInfo("running as root: a read-only folder is writable, that case is not checked");
    }
    std::filesystem::permissions(locked, std::filesystem::perms::owner_all);

    // A writer dropped before finish() leaves nothing either.
    const std::string dropped = file("dropped.h5");
    {
      oct::OctRecordingWriter writer(dropped, acq, 3);
      writer.append(std::span(spectra).first(acq.samplesPerFrame()));
    }
    QVERIFY(!std::filesystem::exists(dropped));
    QVERIFY(!test::anyPartialFile(dir_.path().toStdString()));
  }

  void simulatorRecordedAndReplayedGivesItsFrames() {
    oct::OctSimulatorConfig config;
    config.seed = 7;
    config.samples = 256;
    config.ascans = 32;
    config.bscans = 3;
    config.bidirectional = true;  // the odd B-scan runs right to left, as recorded
    config.flybackAscans = 5;
    oct::OctSimulator simulator(config);
    const std::string path = file("oct_sim.h5");
    oct::recordOctSource(path, simulator, {{"source", simulator.describe()}},
                         oct::OctDispersion{config.a2, config.a3});
    const auto replay = acquire::openSource(path);
    const auto& recording = dynamic_cast<const OctFileSource&>(*replay);
    QCOMPARE(replay->frameCount(), simulator.frameCount());
    QCOMPARE(replay->frameBytes(), simulator.frameBytes());
    QCOMPARE(replay->framesPerVolume(), simulator.framesPerVolume());
    QCOMPARE(recording.acquisition().wavelengthM, simulator.acquisition().wavelengthM);
    QCOMPARE(recording.acquisition().bidirectional, simulator.acquisition().bidirectional);
    QCOMPARE(recording.acquisition().flybackAscans, simulator.acquisition().flybackAscans);
    QCOMPARE(recording.recordedDispersion()->a2Rad, config.a2);
    QVERIFY(recording.acquisition().bidirectional);
    QCOMPARE(recording.acquisition().flybackAscans, 5);
    // The recording's dispersion is where the modality starts.
    const oct::OctParams defaults =
        oct::requireParams(*replay->modality().defaultSettings(*replay));
    QCOMPARE(defaults.a2, config.a2);
    QCOMPARE(defaults.a3, config.a3);
    std::vector<std::byte> recorded(replay->frameBytes()), simulated(simulator.frameBytes());
    for (std::uint64_t f = 0; f < simulator.frameCount(); ++f) {
      acquire::SliceInfo fromFile, fromSimulator;
      replay->readFrame(f, recorded, fromFile);
      simulator.readFrame(f, simulated, fromSimulator);
      QVERIFY2(recorded == simulated, qPrintable(QString("frame %1 differs").arg(f)));
      QCOMPARE(fromFile.sliceIndex, fromSimulator.sliceIndex);
      QVERIFY(std::abs(fromFile.elevationM - fromSimulator.elevationM) <= 1e-15);
    }
  }
};

QTEST_GUILESS_MAIN(TestOctFileSource)
#include "test_oct_file_source.moc"

// Saving buffered volumes (VolumeSaver + cineflow.volume/1), read back through the plain HDF5 C
// API only: every dataset bit-exact, coordinates and units, per-slice metadata, the acquisition
// attributes; compressed and uncompressed. Failures (a folder that cannot exist, a file-size
// limit standing in for a full disk) keep the volume buffered and unsaved and leave no file. A
// save while the engine runs flat out neither stalls nor spoils it: every frame is processed and
// every sweep becomes a volume (Block mode, where the source waits: a drop count would be 0 by
// construction, so it is not what this checks).
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "compute/buffer.hpp"
#include "pipeline/engine.hpp"
#include "registry/source_factory.hpp"
#include "store/compression.hpp"
#include "store/volume_reader.hpp"
#include "store/volume_saver.hpp"
#include "store/volume_store.hpp"
#include "support/mip_reference.hpp"
#include "support/pipeline_checks.hpp"
#include "support/plain_hdf5.hpp"
#include "support/test_paths.hpp"
#include "ultrasound/ultrasound_modality.hpp"

using namespace cineflow;
namespace fs = std::filesystem;

using test::anyPartialFile;
using test::datasetUnits;
using test::lastFilterOf;
using test::readAll;
using test::shapeOf;
using test::someAcquisition;

class TestVolumeSave : public QObject {
  Q_OBJECT

  std::unique_ptr<compute::Backend> cpu_ = compute::createBackend(compute::BackendRequest::Cpu);
  const process::VolumeShape shape_{5, 60, 40};
  fs::path folder_;
  std::vector<float> voxels_;
  test::Mips mips_;
  process::VolumeInfo info_;
  compute::DeviceBuffer<float> volume_, alongY_, alongZ_, alongX_;
  std::unique_ptr<compute::Event> done_;

  // Buffers the fixture volume into `store`; returns its id.
  std::uint64_t bufferInto(store::VolumeStore& store) {
    auto stream = cpu_->createStream("test");
    stream->record(*done_);
    std::string why;
    const auto id = store.buffer(info_,
                                 {compute::DeviceSpan<const float>(volume_.data(), volume_.size()),
                                  compute::DeviceSpan<const float>(alongY_.data(), alongY_.size()),
                                  compute::DeviceSpan<const float>(alongZ_.data(), alongZ_.size()),
                                  compute::DeviceSpan<const float>(alongX_.data(), alongX_.size())},
                                 *done_, *stream, why);
    stream->synchronize();
    return id.value_or(0);
  }

  // Buffers the fixture volume into a store of its own and saves it to `path`; true when saved.
  bool saveFixture(const fs::path& path) {
    store::VolumeStore store(*cpu_);
    if (!store.setCapacity(64 << 20).empty()) {
      return false;
    }
    const std::uint64_t id = bufferInto(store);
    store::VolumeSaver saver(*cpu_, store);
    return saveAndWait(saver, id, path).ok;
  }

  static H5T_class_t attributeClass(hid_t object, const char* name) {
    const hid_t attribute = H5Aopen(object, name, H5P_DEFAULT);
    const hid_t type = H5Aget_type(attribute);
    const H5T_class_t typeClass = H5Tget_class(type);
    H5Tclose(type);
    H5Aclose(attribute);
    return typeClass;
  }

  store::SaveOutcome saveAndWait(store::VolumeSaver& saver, std::uint64_t id, const fs::path& path,
                                 const store::Compression& compression = {}) {
    saver.save({id,
                path,
                ultrasound::describeAcquisition(someAcquisition()),
                {{"f_number", 1.5}, {"backend", std::string("cpu")}},
                compression});
    saver.waitIdle();
    const auto outcomes = saver.takeOutcomes();
    return outcomes.empty() ? store::SaveOutcome{} : outcomes.back();
  }

 private slots:
  void initTestCase() {
    folder_ = fs::temp_directory_path() / ("cineflow-volume-save-" + std::to_string(::getpid()));
    fs::remove_all(folder_);
    fs::create_directories(folder_);
    voxels_ = test::randomVolume(shape_, 31);
    mips_ = test::referenceMips(voxels_, shape_);
    info_ = test::someVolumeInfo(shape_, 7);
    volume_ = compute::DeviceBuffer<float>(*cpu_, shape_.voxels());
    alongY_ = compute::DeviceBuffer<float>(*cpu_, shape_.alongY());
    alongZ_ = compute::DeviceBuffer<float>(*cpu_, shape_.alongZ());
    alongX_ = compute::DeviceBuffer<float>(*cpu_, shape_.alongX());
    cpu_->copyBlocking(volume_.data(), voxels_.data(), volume_.bytes());
    cpu_->copyBlocking(alongY_.data(), mips_.alongY.data(), alongY_.bytes());
    cpu_->copyBlocking(alongZ_.data(), mips_.alongZ.data(), alongZ_.bytes());
    cpu_->copyBlocking(alongX_.data(), mips_.alongX.data(), alongX_.bytes());
    done_ = cpu_->createEvent();
  }

  void cleanupTestCase() { fs::remove_all(folder_); }

  void roundTripIsBitExact_data() {
    QTest::addColumn<QString>("codec");
    QTest::addColumn<QString>("attribute");
    QTest::addColumn<int>("filter");  // the HDF5 filter on /volume (-1: none)
    QTest::newRow("uncompressed") << "none"
                                  << "none" << -1;
    QTest::newRow("gzip 4") << "gzip-4"
                            << "gzip-4+shuffle" << int{H5Z_FILTER_DEFLATE};
    QTest::newRow("lz4 plugin") << "lz4"
                                << "lz4 (hdf5 filter 32004)" << 32004;
    QTest::newRow("bitshuffle-lz4 plugin")
        << "bitshuffle-lz4-5"
        << "bitshuffle-lz4 (hdf5 filter 32001, blosc level 5)" << 32001;
  }

  void roundTripIsBitExact() {
    QFETCH(QString, codec);
    QFETCH(QString, attribute);
    QFETCH(int, filter);
    const store::Compression compression = store::parseCompression(codec.toStdString());
    std::string unavailable;
    if (!store::codecAvailable(compression.codec, &unavailable)) {
      QSKIP(qPrintable(codec + ": " + QString::fromStdString(unavailable)));
    }
    store::VolumeStore store(*cpu_);
    QVERIFY(store.setCapacity(64 << 20).empty());
    const std::uint64_t id = bufferInto(store);
    QVERIFY(id != 0);
    store::VolumeSaver saver(*cpu_, store);
    const fs::path path = folder_ / ("volume-" + codec.toStdString() + ".h5");
    const auto outcome = saveAndWait(saver, id, path, compression);
    QVERIFY2(outcome.ok, outcome.message.c_str());
    QVERIFY(store.list().front().saved);
    QCOMPARE(store.list().front().savedPath, path.string());
    QVERIFY(!anyPartialFile(folder_));

    const test::PlainFile plain(path.string());
    const hid_t file = plain.id;
    QVERIFY(file >= 0);
    QCOMPARE(test::readString(file, "schema"), std::string("cineflow.volume/1"));
    QCOMPARE(test::readDouble(file, "volume_number"), 7.0);
    QCOMPARE(test::readDouble(file, "center_frequency_hz"), someAcquisition().centerFrequencyHz);
    QCOMPARE(test::readDouble(file, "f_number"), 1.5);
    QCOMPARE(test::readString(file, "backend"), std::string("cpu"));
    QCOMPARE(test::readString(file, "compression"), attribute.toStdString());
    QCOMPARE(lastFilterOf(file, "volume"), filter);
    QCOMPARE(shapeOf(file, "volume"), (std::vector<hsize_t>{5, 60, 40}));
    QCOMPARE(readAll<float>(file, "volume", H5T_NATIVE_FLOAT), voxels_);
    QCOMPARE(readAll<float>(file, "mip_y", H5T_NATIVE_FLOAT), mips_.alongY);
    QCOMPARE(readAll<float>(file, "mip_z", H5T_NATIVE_FLOAT), mips_.alongZ);
    QCOMPARE(readAll<float>(file, "mip_x", H5T_NATIVE_FLOAT), mips_.alongX);
    QCOMPARE(datasetUnits(file, "volume"), std::string("dB"));
    for (const char* axis : {"x_m", "y_m", "z_m", "element_x_m"}) {
      QCOMPARE(datasetUnits(file, axis), std::string("m"));
    }
    const auto x = readAll<double>(file, "x_m", H5T_NATIVE_DOUBLE);
    QCOMPARE(x.size(), std::size_t{40});
    QCOMPARE(x[3], -2e-3 + 3 * 1e-4);
    const auto z = readAll<double>(file, "z_m", H5T_NATIVE_DOUBLE);
    QCOMPARE(z.size(), std::size_t{60});
    QCOMPARE(z[0], 5e-3);
    QCOMPARE(readAll<double>(file, "y_m", H5T_NATIVE_DOUBLE), info_.elevationM);
    QCOMPARE(readAll<std::uint64_t>(file, "sequence", H5T_NATIVE_UINT64), info_.sequence);
    QCOMPARE(readAll<std::int64_t>(file, "timestamp_ns", H5T_NATIVE_INT64), info_.timestampNs);
    QCOMPARE(readAll<double>(file, "angles_rad", H5T_NATIVE_DOUBLE), someAcquisition().anglesRad);

    // Cineflow's own reader (File > Open volume) gets the same back, and the store adopts it.
    const store::LoadedVolume loaded = store::readVolumeFile(path);
    QCOMPARE(loaded.volume, voxels_);
    QCOMPARE(loaded.alongZ, mips_.alongZ);
    QCOMPARE(loaded.info.number, std::uint64_t{7});
    QCOMPARE(loaded.info.shape, shape_);
    QCOMPARE(loaded.info.slice.nx, 40);
    QVERIFY(std::abs(loaded.info.slice.dx - 1e-4) < 1e-12);
    QCOMPARE(loaded.info.elevationM, info_.elevationM);
    QCOMPARE(loaded.info.sequence, info_.sequence);
    std::string why;
    const auto adopted = store.adopt(loaded.info, loaded.volume, loaded.alongY, loaded.alongZ,
                                     loaded.alongX, path.string(), why);
    QVERIFY2(adopted, why.c_str());
    QVERIFY(store.list().back().saved);
    const auto access = store.access(*adopted);
    std::vector<float> back(shape_.voxels());
    cpu_->copyBlocking(back.data(), access.view().volume.data(), access.view().volume.bytes());
    QCOMPARE(back, voxels_);
  }

  // Integers are written as HDF5 integers (h5py reads 7, not 7.0), and every processing parameter
  // needed to make the image again is recorded, with the values in effect (not "automatic" 0s).
  void integersAreIntegersAndTheProcessingIsRecorded_data() {
    QTest::addColumn<QString>("mode");
    QTest::newRow("rf") << "rf";
    QTest::newRow("iq") << "iq";
  }

  void integersAreIntegersAndTheProcessingIsRecorded() {
    QFETCH(QString, mode);
    acquire::AcquisitionParams acquisition = someAcquisition();
    acquisition.bandwidthMeasured = true;
    ultrasound::ImagingParams imaging = ultrasound::ImagingParams::defaultsFor(acquisition);
    imaging.mode = ultrasound::parseImagingMode(mode.toStdString());
    imaging.apodisation = ultrasound::Apodisation::Rectangular;
    imaging.fNumber = 1.75;
    imaging.iqDecimation = 2;
    store::VolumeStore store(*cpu_);
    QVERIFY(store.setCapacity(64 << 20).empty());
    const std::uint64_t id = bufferInto(store);
    store::VolumeSaver saver(*cpu_, store);
    const fs::path path = folder_ / ("recorded-" + mode.toStdString() + ".h5");
    saver.save({id,
                path,
                ultrasound::describeAcquisition(acquisition, imaging),
                {{"backend", std::string("cpu")}},
                {}});
    saver.waitIdle();
    const auto outcomes = saver.takeOutcomes();
    QVERIFY(!outcomes.empty());
    QVERIFY2(outcomes.back().ok, outcomes.back().message.c_str());

    const test::PlainFile plain(path.string());
    const hid_t file = plain.id;
    QVERIFY(file >= 0);
    std::vector<const char*> integers = {"volume_number", "samples", "frames_per_volume"};
    std::vector<const char*> floats = {"f_number", "fractional_bandwidth"};
    if (imaging.mode == ultrasound::ImagingMode::Rf) {
      integers.insert(integers.end(), {"rf_interpolation", "fir_taps"});
      const auto [low, high] = imaging.rfBandFor(acquisition);
      const std::string band = test::readString(file, "bandpass_percent_of_f0");
      const auto colon = band.find(':');
      QVERIFY2(colon != std::string::npos, band.c_str());
      // Six significant digits (tolerance: 1e-5 relative).
      QVERIFY2(std::abs(std::stod(band.substr(0, colon)) - low * 100) < 1e-5 * low * 100,
               band.c_str());
      QVERIFY2(std::abs(std::stod(band.substr(colon + 1)) - high * 100) < 1e-5 * high * 100,
               band.c_str());
      QCOMPARE(test::readDouble(file, "rf_interpolation"),
               double(imaging.rfUpsamplingFor(acquisition)));
      QCOMPARE(test::readDouble(file, "fir_taps"), double(imaging.firTaps));
    } else {
      integers.push_back("iq_decimation");
      floats.push_back("iq_bandwidth_percent");
      QCOMPARE(test::readDouble(file, "iq_bandwidth_percent"),
               imaging.iqBandwidthFor(acquisition) * 100.0);
      QCOMPARE(test::readDouble(file, "iq_decimation"), 2.0);
    }
    for (const char* name : integers) {
      QVERIFY2(attributeClass(file, name) == H5T_INTEGER, name);
    }
    for (const char* name : floats) {
      QVERIFY2(attributeClass(file, name) == H5T_FLOAT, name);
    }
    QCOMPARE(test::readDouble(file, "volume_number"), 7.0);
    QCOMPARE(test::readDouble(file, "samples"), 512.0);
    QCOMPARE(test::readDouble(file, "frames_per_volume"), 4.0);
    QCOMPARE(test::readString(file, "imaging_mode"), mode.toStdString());
    QCOMPARE(test::readDouble(file, "f_number"), 1.75);
    QCOMPARE(test::readString(file, "apodisation"), std::string("rect"));
    QCOMPARE(test::readString(file, "grid_mm"), imaging.grid.toMillimetreString());
    QCOMPARE(test::readString(file, "bandwidth_source"), std::string("measured"));
    QCOMPARE(test::readString(file, "backend"), std::string("cpu"));

    // Read back, the file describes its acquisition as it was given (what a second save or an
    // export of the opened volume writes): every attribute with its value and kind, every table
    // with its units; the volume's own attributes are left to the volume.
    const store::FileMetadata given = ultrasound::describeAcquisition(acquisition, imaging);
    const store::FileMetadata read = store::readVolumeFile(path).metadata;
    for (const auto& [name, value] : given.attributes) {
      const auto found = read.attributes.find(name);
      QVERIFY2(found != read.attributes.end(), name.c_str());
      QVERIFY2(found->second == value, name.c_str());
    }
    QVERIFY(read.attributes.at("backend") == store::AttributeValue(std::string("cpu")));
    for (const char* own : {"schema", "volume_number", "compression"}) {
      QVERIFY2(read.attributes.count(own) == 0, own);
    }
    QCOMPARE(read.arrays.size(), given.arrays.size());
    for (const store::MetadataArray& array : given.arrays) {
      const auto found = std::find_if(read.arrays.begin(), read.arrays.end(),
                                      [&](const auto& a) { return a.name == array.name; });
      QVERIFY2(found != read.arrays.end(), array.name.c_str());
      QCOMPARE(found->values, array.values);
      QCOMPARE(found->units, array.units);
    }
  }

  // Files written before the integer attributes (volume_number, samples, frames_per_volume as
  // float64) still open, with their number.
  void filesWithFloatAttributesStillOpen() {
    const fs::path path = folder_ / "float-attributes.h5";
    QVERIFY(saveFixture(path));
    {
      const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
      QVERIFY(file >= 0);
      const hid_t scalar = H5Screate(H5S_SCALAR);
      bool rewritten = true;
      for (const auto& [name, value] :
           {std::pair{"volume_number", 7.0}, std::pair{"samples", 512.0},
            std::pair{"frames_per_volume", 4.0}}) {
        rewritten = rewritten && H5Adelete(file, name) >= 0;
        const hid_t attribute =
            H5Acreate2(file, name, H5T_IEEE_F64LE, scalar, H5P_DEFAULT, H5P_DEFAULT);
        rewritten = rewritten && H5Awrite(attribute, H5T_NATIVE_DOUBLE, &value) >= 0;
        H5Aclose(attribute);
      }
      H5Sclose(scalar);
      H5Fclose(file);
      QVERIFY(rewritten);
    }
    {
      const test::PlainFile plain(path.string());
      QVERIFY(attributeClass(plain.id, "volume_number") == H5T_FLOAT);
    }
    const store::LoadedVolume loaded = store::readVolumeFile(path);
    QCOMPARE(loaded.info.number, std::uint64_t{7});
    QCOMPARE(loaded.volume, voxels_);
  }

  void damagedFilesAreRefusedWithReasons() {
    const fs::path good = folder_ / "good.h5";
    QVERIFY(saveFixture(good));
    const auto refusal = [](const fs::path& path) {
      try {
        store::readVolumeFile(path);
      } catch (const store::StoreError& error) {
        return std::string(error.what());
      }
      return std::string();
    };
    // Truncated to half its size.
    const fs::path truncated = folder_ / "truncated.h5";
    fs::copy_file(good, truncated, fs::copy_options::overwrite_existing);
    fs::resize_file(truncated, fs::file_size(good) / 2);
    std::string message = refusal(truncated);
    QVERIFY2(message.find(truncated.string()) != std::string::npos, message.c_str());
    // Not HDF5 at all.
    const fs::path text = folder_ / "text.h5";
    std::ofstream(text) << "not a volume\n";
    message = refusal(text);
    QVERIFY2(message.find("not an HDF5 file") != std::string::npos, message.c_str());
    // A projection missing.
    const fs::path missing = folder_ / "missing.h5";
    fs::copy_file(good, missing, fs::copy_options::overwrite_existing);
    {
      const hid_t file = H5Fopen(missing.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
      QVERIFY(file >= 0);
      QVERIFY(H5Ldelete(file, "mip_z", H5P_DEFAULT) >= 0);
      H5Fclose(file);
    }
    message = refusal(missing);
    QVERIFY2(message.find("/mip_z: missing") != std::string::npos, message.c_str());
    // Another schema.
    const fs::path other = folder_ / "other.h5";
    fs::copy_file(good, other, fs::copy_options::overwrite_existing);
    {
      const hid_t file = H5Fopen(other.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
      QVERIFY(H5Adelete(file, "schema") >= 0);
      H5Fclose(file);
    }
    message = refusal(other);
    QVERIFY2(message.find("schema") != std::string::npos, message.c_str());
    // The recording being replayed, opened as a volume by mistake: said for what it is, not
    // "damaged" (HDF5 refuses a second open with other locking flags, which the reader avoids).
    const std::string recording = cineflow::test::datasetFile("field2_pw3_points.h5");
    const auto replay = cineflow::acquire::openSource(recording);
    QVERIFY(replay != nullptr);
    message = refusal(recording);
    QVERIFY2(message.find("not a saved volume") != std::string::npos &&
                 message.find("damaged") == std::string::npos,
             message.c_str());
  }

  void impossibleFolderKeepsTheVolume() {
    store::VolumeStore store(*cpu_);
    QVERIFY(store.setCapacity(64 << 20).empty());
    const std::uint64_t id = bufferInto(store);
    store::VolumeSaver saver(*cpu_, store);
    const fs::path blocker = folder_ / "not-a-folder";
    std::ofstream(blocker) << "a regular file where a folder would have to be\n";
    const fs::path path = blocker / "volume.h5";
    const auto outcome = saveAndWait(saver, id, path);
    QVERIFY(!outcome.ok);
    QVERIFY2(outcome.message.find(path.string()) != std::string::npos, outcome.message.c_str());
    QVERIFY2(outcome.message.find("stays buffered") != std::string::npos, outcome.message.c_str());
    QCOMPARE(store.list().size(), std::size_t{1});
    QVERIFY(!store.list().front().saved);
    QVERIFY(!anyPartialFile(folder_));
  }

  void writeErrorKeepsTheVolumeAndLeavesNoFile() {
#if defined(__SANITIZE_ADDRESS__)
    // HDF5 1.10 keeps the buffer of the chunk whose write failed (about 10 KB per failed save),
    // which LeakSanitizer reports at exit. The plain build runs this test.
    QSKIP("HDF5 keeps a failed chunk write's buffer; LeakSanitizer would report it");
#endif
    // A file-size limit makes writes fail with EFBIG, as a full disk fails them with ENOSPC; root
    // is bound by it too. The volume is 60 KB uncompressed; the limit allows 16 KB.
    store::VolumeStore store(*cpu_);
    QVERIFY(store.setCapacity(64 << 20).empty());
    const std::uint64_t id = bufferInto(store);
    store::VolumeSaver saver(*cpu_, store);
    const fs::path path = folder_ / "full.h5";
    store::SaveOutcome outcome;
    {
      const test::FileSizeLimit limit(16 * 1024);
      QVERIFY(limit.active());
      outcome = saveAndWait(saver, id, path);
    }
    qInfo("%s", outcome.message.c_str());
    QVERIFY(!outcome.ok);
    QVERIFY2(outcome.message.find(path.string()) != std::string::npos, outcome.message.c_str());
    QVERIFY(!fs::exists(path));
    QVERIFY(!anyPartialFile(folder_));
    QCOMPARE(store.list().size(), std::size_t{1});
    QVERIFY(!store.list().front().saved);
    QCOMPARE(saver.probe().summary().count, std::size_t{0});  // a failed save is not timed
    // The same volume saves fine once space is back.
    const auto retry = saveAndWait(saver, id, path);
    QVERIFY2(retry.ok, retry.message.c_str());
    QCOMPARE(saver.probe().summary().count, std::size_t{1});
  }

  void saveWhileAcquiringFlatOutKeepsEveryFrameAndSweep() {
    constexpr int kSlices = 4;
    pipeline::EngineConfig config;
    config.pace = false;
    config.framesPerVolume = kSlices;
    config.cineloopFrames = 2 * kSlices;
    config.maxFrames = 2000;
    auto engine = test::makeTaggedEngine(*cpu_, config, nullptr);
    store::VolumeStore store(*cpu_);
    QVERIFY(store.setCapacity(64 << 20).empty());
    store::VolumeSaver saver(*cpu_, store);
    engine->start();
    QTRY_VERIFY_WITH_TIMEOUT(engine->stats().volumes >= 2, 10'000);
    std::string why;
    const auto id = store.bufferLatest(engine->lockLatestVolume(), why);
    QVERIFY2(id, why.c_str());
    saver.save({*id,
                folder_ / "live.h5",
                ultrasound::describeAcquisition(someAcquisition()),
                {},
                {store::Codec::Gzip, 4}});
    QCOMPARE(engine->waitUntilFinished(), pipeline::EngineState::Finished);
    engine->stop();
    saver.waitIdle();
    const auto outcomes = saver.takeOutcomes();
    QCOMPARE(outcomes.size(), std::size_t{1});
    QVERIFY2(outcomes.front().ok, outcomes.front().message.c_str());
    const auto stats = engine->stats();
    QCOMPARE(config.overflow, pipeline::OverflowPolicy::Block);
    QCOMPARE(stats.processed, std::uint64_t{2000});
    QCOMPARE(stats.volumes, std::uint64_t{2000 / kSlices});
    QCOMPARE(stats.volumesAbandoned, std::uint64_t{0});
    // The save was timed, and traced while a recorder was attached (none here).
    const profile::Summary save = saver.probe().summary();
    QCOMPARE(save.count, std::size_t{1});
    QVERIFY(save.last > 0);
    QCOMPARE(saver.probe().name(), std::string("save"));
  }

  void compressionNamesParseAndBadOnesAreRefused() {
    QCOMPARE(store::parseCompression("none"), (store::Compression{store::Codec::None, 4}));
    QCOMPARE(store::parseCompression("gzip"), (store::Compression{store::Codec::Gzip, 4}));
    QCOMPARE(store::parseCompression("gzip-9"), (store::Compression{store::Codec::Gzip, 9}));
    QCOMPARE(store::parseCompression("bitshuffle-lz4-2"),
             (store::Compression{store::Codec::BitshuffleLz4, 2}));
    for (const char* bad : {"", "gzip-0", "gzip-10", "lz4-3", "zstd", "GZIP"}) {
      QVERIFY_THROWS_EXCEPTION(std::invalid_argument, store::parseCompression(bad));
    }
    const std::string problem = store::compressionProblem({store::Codec::Gzip, 12});
    QVERIFY2(problem.find("outside 1..9") != std::string::npos, problem.c_str());
    QVERIFY(store::compressionProblem({store::Codec::None, 0}).empty());
  }
};

QTEST_GUILESS_MAIN(TestVolumeSave)
#include "test_volume_save.moc"

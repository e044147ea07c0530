// BmodeWriter: the file reads back bit-exactly through the plain HDF5 C API (as h5py or MATLAB
// would read it, no Cineflow code), appears under its final name only after finish(), and every
// failure throws StoreError naming the path without leaving a file under the final name.
#include <hdf5.h>
#include <unistd.h>

#include <QtTest>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "store/bmode_writer.hpp"
#include "support/plain_hdf5.hpp"
#include "support/test_random.hpp"
#include "ultrasound/ultrasound_modality.hpp"

using namespace cineflow;
using test::anyPartialFile;
using test::datasetUnits;
using test::readAll;
using test::readDouble;
using test::readString;
using test::shapeOf;
using test::someAcquisition;
using File = test::PlainFile;
namespace fs = std::filesystem;

namespace {

process::ImageGeometry someGeometry() {
  process::ImageGeometry g;
  g.nx = 23;
  g.nz = 17;
  g.x0 = -5e-3;
  g.dx = 0.1e-3;
  g.z0 = 2e-3;
  g.dz = 0.05e-3;
  return g;
}

}  // namespace

class TestBmodeWriter : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;
  fs::path path(const char* name) const { return fs::path(dir_.path().toStdString()) / name; }

  void expectStoreError(const fs::path& target, const char* operation) {
    try {
      store::BmodeWriter writer(target, someGeometry(),
                                ultrasound::describeAcquisition(someAcquisition()));
      QFAIL("no StoreError");
    } catch (const store::StoreError& e) {
      const std::string message = e.what();
      qInfo("%s", message.c_str());
      QVERIFY2(message.find(target.string()) != std::string::npos, message.c_str());
      QVERIFY2(message.find(operation) != std::string::npos, message.c_str());
    }
    std::error_code ec;
    QVERIFY(!fs::exists(target, ec));
  }

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void roundTripIsBitExact() {
    const fs::path target = path("loop.h5");
    const auto geometry = someGeometry();
    const auto acquisition = someAcquisition();
    constexpr int kFrames = 5;
    std::vector<std::vector<float>> images;
    std::vector<acquire::FrameHeader> headers;
    {
      store::BmodeWriter writer(target, geometry, ultrasound::describeAcquisition(acquisition),
                                {{"f_number", 1.5}, {"backend", std::string("cpu")}});
      QVERIFY(fs::exists(writer.temporaryPath()));
      QVERIFY(!fs::exists(target));  // nothing under the final name until finish()
      for (int f = 0; f < kFrames; ++f) {
        images.push_back(
            test::randomFloats(geometry.pixels(), 100 + static_cast<std::uint64_t>(f), -60, 0));
        acquire::FrameHeader header;
        header.sequence = 10 + static_cast<std::uint64_t>(f) * 2;  // a gap: dropped frames
        header.timestampNs = 1'000'000'000LL * f + 7;
        header.slice.elevationM = -1e-3 + 0.5e-3 * f;
        headers.push_back(header);
        writer.appendFrame(header, images.back());
      }
      QCOMPARE(writer.frames(), std::uint64_t(kFrames));
      QVERIFY(!fs::exists(target));
      writer.finish();
    }
    QVERIFY(fs::exists(target));
    QVERIFY(!anyPartialFile(target.parent_path()));

    File file(target.string());
    QVERIFY(file.id >= 0);
    QCOMPARE(readString(file.id, "schema"), std::string("cineflow.bmode/1"));
    QCOMPARE(readDouble(file.id, "sampling_frequency_hz"), acquisition.samplingFrequencyHz);
    QCOMPARE(readDouble(file.id, "center_frequency_hz"), acquisition.centerFrequencyHz);
    QCOMPARE(readDouble(file.id, "sound_speed_m_s"), acquisition.soundSpeedMPerS);
    QCOMPARE(readDouble(file.id, "t0_s"), acquisition.t0S);
    QCOMPARE(readDouble(file.id, "f_number"), 1.5);
    QCOMPARE(readString(file.id, "backend"), std::string("cpu"));
    QCOMPARE(readAll<double>(file.id, "angles_rad", H5T_NATIVE_DOUBLE), acquisition.anglesRad);
    QCOMPARE(readAll<double>(file.id, "element_x_m", H5T_NATIVE_DOUBLE), acquisition.elementXM);

    QCOMPARE(shapeOf(file.id, "bmode_db"),
             (std::vector<hsize_t>{kFrames, hsize_t(geometry.nz), hsize_t(geometry.nx)}));
    const auto pixels = readAll<float>(file.id, "bmode_db", H5T_NATIVE_FLOAT);
    for (int f = 0; f < kFrames; ++f) {
      QVERIFY2(std::memcmp(pixels.data() + geometry.pixels() * static_cast<std::size_t>(f),
                           images[static_cast<std::size_t>(f)].data(),
                           geometry.pixels() * sizeof(float)) == 0,
               ("frame " + std::to_string(f)).c_str());
    }
    const auto sequence = readAll<std::uint64_t>(file.id, "sequence", H5T_NATIVE_UINT64);
    const auto timestamps = readAll<std::int64_t>(file.id, "timestamp_ns", H5T_NATIVE_INT64);
    const auto elevations = readAll<double>(file.id, "elevation_m", H5T_NATIVE_DOUBLE);
    QCOMPARE(sequence.size(), std::size_t(kFrames));
    QCOMPARE(timestamps.size(), std::size_t(kFrames));
    QCOMPARE(elevations.size(), std::size_t(kFrames));
    for (std::size_t f = 0; f < kFrames; ++f) {
      QCOMPARE(sequence[f], headers[f].sequence);
      QCOMPARE(timestamps[f], headers[f].timestampNs);
      QCOMPARE(elevations[f], headers[f].slice.elevationM);
    }
    const auto x = readAll<double>(file.id, "x_m", H5T_NATIVE_DOUBLE);
    const auto z = readAll<double>(file.id, "z_m", H5T_NATIVE_DOUBLE);
    QCOMPARE(x.size(), std::size_t(geometry.nx));
    QCOMPARE(z.size(), std::size_t(geometry.nz));
    // Coordinates are x0 + i dx exactly as the writer computes them (tolerance: 1e-12 m).
    QVERIFY(std::abs(x.back() - (geometry.x0 + (geometry.nx - 1) * geometry.dx)) < 1e-12);
    QVERIFY(std::abs(z.front() - geometry.z0) < 1e-12);
    QCOMPARE(datasetUnits(file.id, "x_m"), std::string("m"));
    QCOMPARE(datasetUnits(file.id, "z_m"), std::string("m"));
    QCOMPARE(datasetUnits(file.id, "bmode_db"), std::string("dB"));
    // Counts are HDF5 integers (h5py gives an int, not 512.0), with their values.
    for (const auto& [name, value] :
         {std::pair{"samples", acquisition.samples},
          std::pair{"frames_per_volume", acquisition.framesPerVolume}}) {
      const hid_t attribute = H5Aopen(file.id, name, H5P_DEFAULT);
      const hid_t type = H5Aget_type(attribute);
      const H5T_class_t typeClass = H5Tget_class(type);
      H5Tclose(type);
      H5Aclose(attribute);
      QVERIFY2(typeClass == H5T_INTEGER, name);
      QCOMPARE(readDouble(file.id, name), double(value));
    }
  }

  void flowLayersBecomeTheirOwnDatasets() {
    const fs::path target = path("flow.h5");
    process::ImageGeometry geometry = someGeometry();
    geometry.layers = process::kFlowImageLayers;
    geometry.aliasingVelocity = 0.74;
    store::BmodeWriter writer(target, geometry, ultrasound::describeAcquisition(someAcquisition()));
    std::vector<std::vector<float>> images;
    for (int f = 0; f < 2; ++f) {
      images.push_back(test::randomFloats(geometry.values(), 10 + static_cast<unsigned>(f)));
      images.back()[geometry.pixels() + 5] = NAN;  // no estimate at one pixel
      acquire::FrameHeader header;
      header.sequence = static_cast<std::uint64_t>(f);
      writer.appendFrame(header, images.back());
    }
    // Only the intensity's worth of values is refused: every layer travels together.
    QVERIFY_THROWS_EXCEPTION(store::StoreError,
                             writer.appendFrame({}, test::randomFloats(geometry.pixels(), 1)));
    writer.finish();
    File file(target.string());
    QVERIFY(file.id >= 0);
    const char* names[] = {"bmode_db", "velocity_m_s", "variance_m2_s2", "power_db"};
    const char* units[] = {"dB", "m/s", "m^2/s^2", "dB"};
    for (int layer = 0; layer < 4; ++layer) {
      QCOMPARE(shapeOf(file.id, names[layer]), (std::vector<hsize_t>{2, 17, 23}));
      QCOMPARE(datasetUnits(file.id, names[layer]), std::string(units[layer]));
      const auto values = readAll<float>(file.id, names[layer], H5T_NATIVE_FLOAT);
      for (std::size_t f = 0; f < 2; ++f) {
        const float* expected = images[f].data() + layer * geometry.pixels();
        QVERIFY(std::memcmp(values.data() + f * geometry.pixels(), expected,
                            geometry.pixels() * sizeof(float)) == 0);  // NaN included
      }
    }
    const hid_t velocity = H5Dopen2(file.id, "velocity_m_s", H5P_DEFAULT);
    QCOMPARE(readDouble(velocity, "aliasing_velocity_m_s"), 0.74);
    H5Dclose(velocity);
  }

  void zeroFramesStillMakeAValidFile() {
    const fs::path target = path("empty.h5");
    store::BmodeWriter writer(target, someGeometry(),
                              ultrasound::describeAcquisition(someAcquisition()));
    writer.finish();
    File file(target.string());
    QVERIFY(file.id >= 0);
    QCOMPARE(shapeOf(file.id, "bmode_db")[0], hsize_t(0));
    QVERIFY_THROWS_EXCEPTION(store::StoreError, writer.finish());
  }

  void destroyedWithoutFinishLeavesNoFile() {
    const fs::path target = path("abandoned.h5");
    fs::path temporary;
    {
      store::BmodeWriter writer(target, someGeometry(),
                                ultrasound::describeAcquisition(someAcquisition()));
      temporary = writer.temporaryPath();
      QCOMPARE(temporary.parent_path(), target.parent_path());
      QVERIFY(temporary.filename().string().find(".partial-" + std::to_string(::getpid())) !=
              std::string::npos);
      const auto image = test::randomFloats(someGeometry().pixels(), 3);
      writer.appendFrame(acquire::FrameHeader{}, image);
    }
    QVERIFY(!fs::exists(target));
    QVERIFY(!fs::exists(temporary));
  }

  void wrongImageSizeIsRejected() {
    const fs::path target = path("wrong_size.h5");
    store::BmodeWriter writer(target, someGeometry(),
                              ultrasound::describeAcquisition(someAcquisition()));
    const auto image = test::randomFloats(someGeometry().pixels() - 1, 4);
    QVERIFY_THROWS_EXCEPTION(store::StoreError, writer.appendFrame(acquire::FrameHeader{}, image));
    // A caller mistake does not spoil the file.
    const auto good = test::randomFloats(someGeometry().pixels(), 4);
    writer.appendFrame(acquire::FrameHeader{}, good);
    writer.finish();
    QVERIFY(fs::exists(target));
  }

  void finishReplacesAnExistingFile() {
    const fs::path target = path("replace.h5");
    std::ofstream(target) << "old contents";
    store::BmodeWriter writer(target, someGeometry(),
                              ultrasound::describeAcquisition(someAcquisition()));
    writer.finish();
    File file(target.string());
    QVERIFY(file.id >= 0);
  }

  void impossiblePathThrows() {
    // A "directory" that is a regular file: fails for root too, which ignores permissions.
    const fs::path notADirectory = path("plain_file");
    std::ofstream(notADirectory) << "x";
    const fs::path target = notADirectory / "out.h5";
    expectStoreError(target, "create");
    QVERIFY(!fs::exists(target));
    expectStoreError(path("missing_dir") / "out.h5", "create");
  }

  void temporaryNameTakenThrows() {
    // The temporary name is a directory: HDF5 itself fails to create the file. That directory
    // is not ours, so it must survive.
    const fs::path target = path("taken.h5");
    fs::path temporary = target;
    temporary += ".partial-" + std::to_string(::getpid());
    fs::create_directory(temporary);
    expectStoreError(target, "create");
    QVERIFY(fs::is_directory(temporary));
    fs::remove(temporary);
  }

  void fullDiskThrowsAndLeavesNothing() {
    // A file-size limit makes writes fail with EFBIG, as a full disk fails them with ENOSPC.
    // Root is bound by it too.
    const fs::path target = path("full.h5");
    process::ImageGeometry geometry = someGeometry();
    geometry.nx = 128;
    geometry.nz = 128;  // 64 KiB per frame
    const auto image = test::randomFloats(geometry.pixels(), 8);
    std::string message;
    {
      const test::FileSizeLimit limit(512 * 1024);
      QVERIFY(limit.active());
      try {
        store::BmodeWriter writer(target, geometry,
                                  ultrasound::describeAcquisition(someAcquisition()));
        for (int f = 0; f < 64; ++f) {  // 4 MiB in all
          writer.appendFrame(acquire::FrameHeader{}, image);
        }
        writer.finish();
      } catch (const store::StoreError& e) {
        message = e.what();
      }
    }
    qInfo("%s", message.c_str());
    QVERIFY2(!message.empty(), "no StoreError although the file could not grow past 512 KiB");
    QVERIFY2(message.find(target.string()) != std::string::npos, message.c_str());
    QVERIFY(!fs::exists(target));
    QVERIFY(!anyPartialFile(target.parent_path()));
  }

  void invalidGeometryThrows() {
    process::ImageGeometry geometry = someGeometry();
    geometry.nx = 0;
    QVERIFY_THROWS_EXCEPTION(
        store::StoreError, store::BmodeWriter(path("bad.h5"), geometry,
                                              ultrasound::describeAcquisition(someAcquisition())));
    QVERIFY(!fs::exists(path("bad.h5")));
    QVERIFY(!anyPartialFile(path("")));
  }

  void readOnlyDirectoryThrows() {
    if (::geteuid() == 0) {
      QSKIP(
          "running as root, which ignores directory permissions (impossiblePathThrows covers the "
          "failure path)");
    }
    const fs::path readOnly = path("read_only");
    fs::create_directory(readOnly);
    fs::permissions(readOnly, fs::perms::owner_read | fs::perms::owner_exec |
                                  fs::perms::group_read | fs::perms::group_exec |
                                  fs::perms::others_read | fs::perms::others_exec);
    expectStoreError(readOnly / "out.h5", "create");
    fs::permissions(readOnly, fs::perms::owner_all);
    QVERIFY(!fs::exists(readOnly / "out.h5"));
  }
};

QTEST_APPLESS_MAIN(TestBmodeWriter)
#include "test_bmode_writer.moc"

// Nothing lost, nothing crashes: the cineflow executable run the ways a user, a peer's file or a
// machine can run it, beyond the developer's own set-up:
//   - a CPU backend of one thread (CINEFLOW_THREADS=1, or a machine reporting one core) images
//     OCT and ultrasound to the end; a CINEFLOW_THREADS that is not a number is said and ignored;
//   - a recording whose bitshuffle-LZ4 chunks have blocks of any size a peer's encoder writes
//     (8, 64, 4096 or 65536 elements) replays headless into an output file, to the very images of
//     the uncompressed recording, however many frames the run takes.
#include <hdf5.h>

#include <QTemporaryDir>
#include <QtTest>

#include <cstdint>
#include <string>
#include <vector>

#include "process/bitshuffle_lz4.hpp"
#include "support/plain_hdf5.hpp"
#include "support/rf_file_fixture.hpp"
#include "support/run_app.hpp"

namespace {

using Run = cineflow::test::AppRun;
using cineflow::test::runApp;

// A hang becomes a failure after this long (CTest's timeout is the real limit).
constexpr int kHangMs = 120000;

// Copies the cineflow.rf/1 recording `plain` to `packed` with /rf stored one frame per chunk in
// bitshuffle-LZ4 (HDF5 filter 32008) with blocks of `blockElements` int16 samples, written as
// another program's encoder would (direct chunk writes; the filter marked optional, so that no
// plugin is needed to write it).
void packRecording(const std::string& plain, const std::string& packed, unsigned blockElements) {
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
  const unsigned options[5] = {0, 3, 2, blockElements, cineflow::process::kBitshuffleLz4};
  QVERIFY(H5Pset_filter(dcpl, cineflow::process::kBitshuffleFilterId, H5Z_FLAG_OPTIONAL, 5,
                        options) >= 0);
  const hid_t rf = H5Dcreate2(out, "rf", H5T_STD_I16LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  QVERIFY(rf >= 0);
  const std::size_t frameSamples = static_cast<std::size_t>(dims[1] * dims[2] * dims[3]);
  std::vector<std::byte> stored;
  for (hsize_t f = 0; f < dims[0]; ++f) {
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
        const hid_t type = H5Aget_type(attribute);
        const hid_t attributeSpace = H5Aget_space(attribute);
        std::vector<std::byte> value(H5Tget_size(type) *
                                     static_cast<std::size_t>(H5Sget_simple_extent_npoints(
                                         attributeSpace)));
        H5Aread(attribute, type, value.data());
        const hid_t copy = H5Acreate2(*static_cast<hid_t*>(target), name, type, attributeSpace,
                                      H5P_DEFAULT, H5P_DEFAULT);
        H5Awrite(copy, type, value.data());
        H5Aclose(copy);
        H5Sclose(attributeSpace);
        H5Tclose(type);
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
    QTest::newRow("OCT, 1 thread") << "oct-sim" << "1";
    QTest::newRow("ultrasound, 1 thread") << "sim" << "1";
    QTest::newRow("OCT, CINEFLOW_THREADS=abc") << "oct-sim" << "abc";
  }

  // Found from outside: OCT's mean spectrum summed into stack scratch sized by its grain, while
  // a pool of one thread handed the whole range to one call.
  void oneThreadImagesToTheEnd() {
    QFETCH(QString, input);
    QFETCH(QString, threads);
    QTemporaryDir dir;
    const QString out = dir.filePath("out.h5");
    const Run run =
        runApp({"--headless", "--backend", "cpu", "--input", input, "--output", out, "--frames",
                "2"},
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
    QStringList imaging{"--headless", "--backend", "cpu", "--no-tune", "--frames", "40", "--grid",
                        "-4:4:0.2,2:14:0.1"};
    const QString plainOut = dir.filePath("plain-out.h5");
    const QString packedOut = dir.filePath("packed-out.h5");
    const Run plainRun = runApp(imaging + QStringList{"--input", QString::fromStdString(plain),
                                                      "--output", plainOut},
                                kHangMs);
    QVERIFY2(plainRun.exitCode == 0, qPrintable(plainRun.err + plainRun.out));
    const Run packedRun = runApp(imaging + QStringList{"--input", QString::fromStdString(packed),
                                                       "--output", packedOut},
                                 kHangMs);
    QVERIFY2(packedRun.exitCode == 0, qPrintable(packedRun.err + packedRun.out));
    const std::vector<float> expected = bmodeOf(plainOut);
    const std::vector<float> replayed = bmodeOf(packedOut);
    QVERIFY(!expected.empty());
    QCOMPARE(replayed.size(), expected.size());
    QVERIFY2(replayed == expected, "the packed recording's images equal the plain one's bit for bit");
  }
};

QTEST_GUILESS_MAIN(TestCliSafety)
#include "test_cli_safety.moc"

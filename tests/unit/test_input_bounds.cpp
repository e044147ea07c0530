// Bounds before allocation (acquire/input_bounds.hpp) and the defects fuzzing found (tests/fuzz):
// every size an input states is checked against what the input holds and what a frame may take
// before anything is allocated, and is refused naming the field. Each reproducer the fuzzers
// found in Cineflow's code is replayed here through the production API.
#include <hdf5.h>
#include <matio.h>

#include <QTemporaryDir>
#include <QtTest>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "acquire/input_bounds.hpp"
#include "batch/batch_plan.hpp"
#include "oct/raw_spectra_import.hpp"
#include "tune/variant_pins.hpp"
#include "ultrasound/mat_import.hpp"
#include "ultrasound/rf_file_source.hpp"
#include "ultrasound/stream_description.hpp"
#include "ultrasound/stream_source.hpp"

using namespace cineflow;

namespace {

// Runs `body`, which must throw E whose message contains every one of `parts`.
template <class E, class Body>
bool throwsNaming(Body body, const std::vector<std::string>& parts, std::string& message) {
  try {
    body();
  } catch (const E& e) {
    message = e.what();
    for (const std::string& part : parts) {
      if (message.find(part) == std::string::npos) {
        return false;
      }
    }
    return true;
  } catch (const std::exception& e) {
    message = std::string("another exception: ") + e.what();
    return false;
  }
  message = "nothing thrown";
  return false;
}

std::vector<std::byte> fileBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes(chars.size());
  std::memcpy(bytes.data(), chars.data(), chars.size());
  return bytes;
}

// A cineflow.rf/1 recording of a few kilobytes whose /rf claims frames of 10^12 int16 samples,
// [1][100][10000][1000000] (chunked, no chunk written): every attribute it needs is valid.
void writeTeraSampleRecording(const std::filesystem::path& path) {
  const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  const hsize_t dims[4] = {1, 100, 10000, 1000000};
  const hsize_t chunk[4] = {1, 1, 1, 4096};
  const hid_t space = H5Screate_simple(4, dims, nullptr);
  const hid_t create = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(create, 4, chunk);
  const hid_t rf = H5Dcreate2(file, "rf", H5T_STD_I16LE, space, H5P_DEFAULT, create, H5P_DEFAULT);
  const auto number = [](hid_t object, const char* name, double value) {
    const hid_t scalar = H5Screate(H5S_SCALAR);
    const hid_t attribute =
        H5Acreate2(object, name, H5T_IEEE_F64LE, scalar, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(attribute, H5T_NATIVE_DOUBLE, &value);
    H5Aclose(attribute);
    H5Sclose(scalar);
  };
  number(rf, "sampling_frequency_hz", 20e6);
  number(rf, "center_frequency_hz", 5e6);
  number(rf, "sound_speed_m_s", 1540);
  number(rf, "t0_s", 0);
  const hid_t text = H5Tcopy(H5T_C_S1);
  H5Tset_size(text, 13);
  const hid_t scalar = H5Screate(H5S_SCALAR);
  const hid_t schema = H5Acreate2(rf, "schema", text, scalar, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(schema, text, "cineflow.rf/1");
  for (const char* name : {"angles_rad", "element_x_m"}) {
    const hsize_t one[1] = {std::string(name) == "angles_rad" ? 100u : 10000u};
    const hid_t oneSpace = H5Screate_simple(1, one, nullptr);
    const hid_t table =
        H5Dcreate2(file, name, H5T_IEEE_F64LE, oneSpace, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    std::vector<double> values(one[0]);
    for (std::size_t k = 0; k < values.size(); ++k) {
      values[k] = 1e-6 * static_cast<double>(k);  // increasing: valid positions and angles
    }
    H5Dwrite(table, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
    H5Dclose(table);
    H5Sclose(oneSpace);
  }
  H5Aclose(schema);
  H5Sclose(scalar);
  H5Tclose(text);
  H5Dclose(rf);
  H5Pclose(create);
  H5Sclose(space);
  H5Fclose(file);
}

// A MATLAB v5 file in PyMUST's Verasonics layout (MatMapping::verasonics()), written by matio.
void writeVerasonicsMat(const std::filesystem::path& path) {
  mat_t* mat = Mat_CreateVer(path.c_str(), nullptr, MAT_FT_MAT5);
  std::vector<double> rf(64 * 4 * 2);
  for (std::size_t k = 0; k < rf.size(); ++k) {
    rf[k] = static_cast<double>(static_cast<int>(k * 37 % 201) - 100);
  }
  std::size_t rfDims[3] = {64, 4, 2};
  matvar_t* rfVar = Mat_VarCreate("RF", MAT_C_DOUBLE, MAT_T_DOUBLE, 3, rfDims, rf.data(), 0);
  Mat_VarWrite(mat, rfVar, MAT_COMPRESSION_NONE);
  Mat_VarFree(rfVar);
  Mat_Close(mat);
}

}  // namespace

class TestInputBounds : public QObject {
  Q_OBJECT

 private slots:
  void checkedProductSaysWhenItOverflows();
  void aRecordingClaimingTeraSamplesIsRefusedNamingItsShape();
  void aFileImageWithoutSignatureIsRefused();
  void aNetworkHeaderClaimingTeraSamplesIsRefused();
  void aPluginSampleTypeOutsideTheEnumIsRefused();
  void aMatStructWithoutFieldNamesIsRefused();
  void aMatDimensionsTagPastItsVariableIsRefused();
  void aRawOctDescriptionClaimingTeraSamplesIsRefused();
  void batchPlanNumbersAndGridsAreBounded();
  void aVariantTableThatIsNotAFileIsRefused();
};

void TestInputBounds::checkedProductSaysWhenItOverflows() {
  QCOMPARE(acquire::checkedProduct({3, 192, 2313, 2}).value_or(0), 3ull * 192 * 2313 * 2);
  QVERIFY(!acquire::checkedProduct({1ull << 32, 1ull << 32}).has_value());
  QVERIFY(acquire::frameBytesLimit() >= (std::uint64_t{64} << 20));  // any machine Cineflow runs on
  QVERIFY(acquire::frameBytesLimit() <= (std::uint64_t{512} << 20));
}

void TestInputBounds::aRecordingClaimingTeraSamplesIsRefusedNamingItsShape() {
  QTemporaryDir dir;
  const std::filesystem::path path = dir.filePath("tera.h5").toStdString();
  writeTeraSampleRecording(path);
  QVERIFY(std::filesystem::file_size(path) < 200000);  // the tables: 10 100 doubles
  std::string message;
  QVERIFY2(throwsNaming<acquire::SourceError>(
               [&] { ultrasound::RfFileSource source(path, 0); },
               {"tera.h5", "/rf shape [1][100][10000][1000000]", "2000000000000 bytes", "at most"},
               message),
           message.c_str());
  // The same bytes from memory (a file image) are refused alike.
  const std::vector<std::byte> image = fileBytes(path);
  QVERIFY2(throwsNaming<acquire::SourceError>(
               [&] {
                 ultrasound::RfFileSource source(acquire::RecordingInput{"image.h5", image}, 0);
               },
               {"image.h5", "/rf shape"}, message),
           message.c_str());
}

void TestInputBounds::aFileImageWithoutSignatureIsRefused() {
  const std::vector<std::byte> forty(40, std::byte{0x41});
  std::string message;
  QVERIFY2(throwsNaming<acquire::SourceError>(
               [&] {
                 ultrasound::RfFileSource source(acquire::RecordingInput{"forty.h5", forty}, 0);
               },
               {"forty.h5", "not an HDF5 file"}, message),
           message.c_str());
}

void TestInputBounds::aNetworkHeaderClaimingTeraSamplesIsRefused() {
  nlohmann::json header = {{"type", "header"},
                           {"schema", "cineflow.stream/1"},
                           {"modality", "ultrasound"},
                           {"sample_type", "int16"},
                           {"samples", 4000000000u},
                           {"sampling_frequency_hz", 20e6},
                           {"center_frequency_hz", 5e6},
                           {"angles_rad", {0.0}},
                           {"element_x_m", {-1e-4, 1e-4}}};
  std::string message;
  QVERIFY2(throwsNaming<acquire::SourceError>(
               [&] { (void)ultrasound::ultrasoundStreamFromHeader(header, "network stream"); },
               {"network stream", "transmits x elements x samples", "16000000000 bytes"}, message),
           message.c_str());
  header["samples"] = 1ull << 40;  // past the field's 32 bits: refused, not wrapped to 0
  QVERIFY2(throwsNaming<acquire::SourceError>(
               [&] { (void)ultrasound::ultrasoundStreamFromHeader(header, "network stream"); },
               {"\"samples\"", "more than 4294967295"}, message),
           message.c_str());
}

void TestInputBounds::aPluginSampleTypeOutsideTheEnumIsRefused() {
  const double angle = 0, elements[2] = {-1e-4, 1e-4};
  cf_stream stream{};
  stream.modality = "ultrasound";
  stream.sample_type = 181;  // the fuzzer's value: undefined behaviour while it was an enum
  stream.transmits = 1;
  stream.elements = 2;
  stream.samples = 64;
  stream.frame_bytes = 256;
  stream.sampling_frequency_hz = 20e6;
  stream.center_frequency_hz = 5e6;
  stream.sound_speed_m_s = 1540;
  stream.angles_rad = &angle;
  stream.element_x_m = elements;
  std::string message;
  QVERIFY2(throwsNaming<acquire::SourceError>(
               [&] { (void)ultrasound::checkUltrasoundStream(stream, "source plugin 'Lab'"); },
               {"source plugin 'Lab'", "sample_type 181"}, message),
           message.c_str());
  stream.sample_type = CF_SAMPLES_INT16;
  stream.samples = 4000000000u;  // a frame of 16 GB
  stream.frame_bytes = 16000000000ull;
  QVERIFY2(throwsNaming<acquire::SourceError>(
               [&] { (void)ultrasound::checkUltrasoundStream(stream, "source plugin 'Lab'"); },
               {"transmits x elements x samples", "16000000000 bytes"}, message),
           message.c_str());
}

void TestInputBounds::aMatStructWithoutFieldNamesIsRefused() {
  // fuzz_mat_file's reproducer: a v5 file whose struct `param` lost its field names; matio then
  // read through a null pointer when asked for param.fs.
  const std::string path =
      std::string(CINEFLOW_TEST_SOURCE_DIR) + "/data/fuzz/mat_struct_without_field_names.mat";
  std::string message;
  QVERIFY2(throwsNaming<acquire::SourceError>(
               [&] { (void)ultrasound::importMat(path, ultrasound::MatMapping::verasonics()); },
               {"mat_struct_without_field_names.mat", "param", "damaged"}, message),
           message.c_str());
}

void TestInputBounds::aMatDimensionsTagPastItsVariableIsRefused() {
  QTemporaryDir dir;
  const std::filesystem::path path = dir.filePath("dims.mat").toStdString();
  writeVerasonicsMat(path);
  // Offset 128: the variable's tag (8 bytes), its array flags (tag + 8 bytes), then the
  // dimensions' tag: type miINT32 (5) and their byte count, claimed here as 2^31 - 16.
  std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
  std::uint32_t type = 0;
  file.seekg(152);
  file.read(reinterpret_cast<char*>(&type), 4);
  QCOMPARE(type, 5u);
  const std::uint32_t claimed = 0x7ffffff0;
  file.seekp(156);
  file.write(reinterpret_cast<const char*>(&claimed), 4);
  file.close();
  std::string message;
  QVERIFY2(throwsNaming<acquire::SourceError>(
               [&] { (void)ultrasound::importMat(path, ultrasound::MatMapping::verasonics()); },
               {"dims.mat", "variable 1 is damaged", "dimensions"}, message),
           message.c_str());
}

void TestInputBounds::aRawOctDescriptionClaimingTeraSamplesIsRefused() {
  const std::string json = R"({"samples": 1000000000000, "ascans": 512, "bit_depth": 12,
      "wavelength_first_m": 8e-7, "wavelength_last_m": 8.8e-7, "centre_wavelength_m": 8.4e-7,
      "bscans_per_volume": 0, "bidirectional": false, "flyback_ascans": 0,
      "lateral_step_m": 1e-5, "elevation_step_m": 0})";
  std::string message;
  QVERIFY2(throwsNaming<oct::RawSpectraError>(
               [&] { (void)oct::parseRawSpectraDescription(json, "raw.json", "/nonexistent"); },
               {"raw.json", "samples"}, message),
           message.c_str());
  // fuzz_raw_oct's find: a number past double's range escaped the JSON parser's checks.
  QVERIFY2(throwsNaming<oct::RawSpectraError>(
               [&] {
                 (void)oct::parseRawSpectraDescription(R"({"samples": 8.8e4294967296})", "raw.json",
                                                       "/nonexistent");
               },
               {"raw.json", "not valid JSON"}, message),
           message.c_str());
}

void TestInputBounds::batchPlanNumbersAndGridsAreBounded() {
  const auto parse = [](const std::string& text) {
    return app::batch::parseBatchPlan(text, "/plans/plan.json",
                                      [](const std::filesystem::path&, const std::string& p) {
                                        return std::vector<std::string>{p};
                                      });
  };
  const std::string head = R"({"schema": "cineflow.batch/1", "inputs": ["sim"], )";
  std::string message;
  QVERIFY2(throwsNaming<std::invalid_argument>([&] { parse(head + R"("frames": 1e30})"); },
                                               {"plan.json", "frames"}, message),
           message.c_str());
  QVERIFY2(throwsNaming<std::invalid_argument>(
               [&] { parse(head + R"("slurm": {"jobs_per_task": 1e300}})"); },
               {"jobs_per_task", "whole number"}, message),
           message.c_str());
  // Ten option sets of ten values: 10^10 jobs, refused before one is made.
  nlohmann::json plan = nlohmann::json::parse(head + "\"frames\": 1}");
  for (const char* option : {"fnumber", "iq-bandwidth", "prf", "ensemble", "refractive-index",
                             "iq-decimation", "grid", "map", "mode", "apodisation"}) {
    plan["parameters"][option] = nlohmann::json::array();
    for (int v = 1; v <= 10; ++v) {
      plan["parameters"][option].push_back(v);
    }
  }
  QVERIFY2(throwsNaming<std::invalid_argument>([&] { parse(plan.dump()); },
                                               {"more than the 100000 jobs"}, message),
           message.c_str());
}

void TestInputBounds::aVariantTableThatIsNotAFileIsRefused() {
  std::string message;
  QVERIFY2(throwsNaming<std::runtime_error>([] { (void)tune::readPins("/dev/zero"); },
                                            {"/dev/zero", "not a file"}, message),
           message.c_str());
}

QTEST_APPLESS_MAIN(TestInputBounds)
#include "test_input_bounds.moc"

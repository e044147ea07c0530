#include "support/oct_file_fixture.hpp"

#include "oct/oct_writer.hpp"
#include "support/test_random.hpp"

namespace cineflow::test {

oct::OctAcquisition someOctAcquisition() {
  oct::OctAcquisition acq;
  acq.samples = 64;
  acq.ascans = 24;
  acq.bitDepth = 12;
  acq.wavelengthM = oct::linearWavelengths(acq.samples, 880e-9, 800e-9);  // falling, as some are
  acq.centreWavelengthM = 841e-9;
  acq.bandwidthM = 31e-9;
  acq.bscansPerVolume = 3;
  acq.bidirectional = true;
  acq.flybackAscans = 2;
  acq.lateralStepM = 7e-6;
  acq.elevationStepM = 11e-6;
  acq.lineRateHz = 50000;
  return acq;
}

std::vector<std::uint16_t> randomSpectra(const oct::OctAcquisition& acq, std::uint64_t frames,
                                         std::uint64_t seed) {
  std::vector<std::uint16_t> spectra(acq.samplesPerFrame() * frames);
  SeededRandom random(seed);
  for (std::uint16_t& value : spectra) {
    value = static_cast<std::uint16_t>(random.integer(1, 65535));
  }
  return spectra;
}

std::vector<std::uint16_t> writeGoodOctRecording(const std::string& path, std::uint64_t seed) {
  const oct::OctAcquisition acq = someOctAcquisition();
  std::vector<std::uint16_t> spectra = randomSpectra(acq, 4, seed);
  oct::writeOctRecording(path, acq, spectra, 4, {{"source", std::string("test")}},
                         oct::OctDispersion{12.5, -3.25});
  return spectra;
}

PlainEditor::PlainEditor(const std::string& path)
    : file_(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT)) {}

PlainEditor::~PlainEditor() {
  if (file_ >= 0) {
    H5Fclose(file_);
  }
}

void PlainEditor::setNumber(const char* name, double value) const {
  if (H5Aexists(file_, name) > 0) {
    H5Adelete(file_, name);
  }
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t attribute = H5Acreate2(file_, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(attribute, H5T_NATIVE_DOUBLE, &value);
  H5Aclose(attribute);
  H5Sclose(space);
}

void PlainEditor::setString(const char* name, const char* value) const {
  if (H5Aexists(file_, name) > 0) {
    H5Adelete(file_, name);
  }
  const hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, H5T_VARIABLE);
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t attribute = H5Acreate2(file_, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(attribute, type, &value);
  H5Aclose(attribute);
  H5Sclose(space);
  H5Tclose(type);
}

void PlainEditor::remove(const char* name) const {
  if (H5Aexists(file_, name) > 0) {
    H5Adelete(file_, name);
  } else {
    H5Ldelete(file_, name, H5P_DEFAULT);
  }
}

void PlainEditor::replaceDataset(const char* name, hid_t type, const std::vector<hsize_t>& dims,
                                 const std::vector<double>& values) const {
  if (H5Lexists(file_, name, H5P_DEFAULT) > 0) {
    H5Ldelete(file_, name, H5P_DEFAULT);
  }
  const hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
  const hid_t dataset = H5Dcreate2(file_, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (!values.empty()) {
    H5Dwrite(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
  }
  H5Dclose(dataset);
  H5Sclose(space);
}

}  // namespace cineflow::test

#include "support/plain_hdf5.hpp"

#include <sys/resource.h>

#include <csignal>

namespace cineflow::test {

std::vector<hsize_t> shapeOf(hid_t file, const char* name) {
  const hid_t dataset = H5Dopen2(file, name, H5P_DEFAULT);
  const hid_t space = H5Dget_space(dataset);
  std::vector<hsize_t> dims(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space)));
  H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  H5Sclose(space);
  H5Dclose(dataset);
  return dims;
}

int lastFilterOf(hid_t file, const char* name) {
  const hid_t dataset = H5Dopen2(file, name, H5P_DEFAULT);
  const hid_t creation = H5Dget_create_plist(dataset);
  const int count = H5Pget_nfilters(creation);
  int filter = -1;
  if (count > 0) {
    unsigned flags = 0;
    std::size_t values = 0;
    unsigned config = 0;
    filter = static_cast<int>(H5Pget_filter2(creation, static_cast<unsigned>(count - 1), &flags,
                                             &values, nullptr, 0, nullptr, &config));
  }
  H5Pclose(creation);
  H5Dclose(dataset);
  return filter;
}

double readDouble(hid_t object, const char* name) {
  double value = -1;
  const hid_t attribute = H5Aopen(object, name, H5P_DEFAULT);
  H5Aread(attribute, H5T_NATIVE_DOUBLE, &value);
  H5Aclose(attribute);
  return value;
}

std::string readString(hid_t object, const char* name) {
  const hid_t attribute = H5Aopen(object, name, H5P_DEFAULT);
  const hid_t type = H5Aget_type(attribute);
  const hid_t memType = H5Tcopy(H5T_C_S1);
  H5Tset_size(memType, H5T_VARIABLE);
  H5Tset_cset(memType, H5Tget_cset(type));
  char* text = nullptr;
  H5Aread(attribute, memType, &text);
  std::string value = text != nullptr ? text : "";
  H5free_memory(text);
  H5Tclose(memType);
  H5Tclose(type);
  H5Aclose(attribute);
  return value;
}

std::string datasetUnits(hid_t file, const char* name) {
  const hid_t dataset = H5Dopen2(file, name, H5P_DEFAULT);
  std::string units = readString(dataset, "units");
  H5Dclose(dataset);
  return units;
}

acquire::AcquisitionParams someAcquisition() {
  acquire::AcquisitionParams p;
  p.samplingFrequencyHz = 20e6;
  p.centerFrequencyHz = 5.2e6;
  p.soundSpeedMPerS = 1540;
  p.t0S = -1.25e-6;
  p.anglesRad = {-0.1, 0.0, 0.1};
  p.elementXM = {-0.45e-3, -0.15e-3, 0.15e-3, 0.45e-3};
  p.samples = 512;
  p.fractionalBandwidth = 0.6;
  p.framesPerVolume = 4;
  return p;
}

bool anyPartialFile(const std::filesystem::path& folder) {
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (entry.path().filename().string().find(".partial-") != std::string::npos) {
      return true;
    }
  }
  return false;
}

FileSizeLimit::FileSizeLimit(std::size_t bytes) {
  std::signal(SIGXFSZ, SIG_IGN);  // the write fails with EFBIG instead of killing the process
  rlimit current{};
  if (getrlimit(RLIMIT_FSIZE, &current) != 0) {
    return;
  }
  previous_ = current.rlim_cur;
  rlimit limited = current;
  limited.rlim_cur = bytes;
  active_ = setrlimit(RLIMIT_FSIZE, &limited) == 0;
}

FileSizeLimit::~FileSizeLimit() {
  if (active_) {
    rlimit current{};
    getrlimit(RLIMIT_FSIZE, &current);
    current.rlim_cur = previous_;
    setrlimit(RLIMIT_FSIZE, &current);
  }
}

}  // namespace cineflow::test

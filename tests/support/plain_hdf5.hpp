#pragma once
// Readers on the raw HDF5 C API for the writer tests: they stand in for an outside tool (h5py,
// MATLAB), so no Cineflow code takes part in reading a saved file back. Also the fixtures the
// store tests share.

#include <hdf5.h>

#include <filesystem>
#include <string>
#include <vector>

#include "acquire/frame.hpp"

namespace cineflow::test {

struct PlainFile {
  hid_t id;
  explicit PlainFile(const std::string& path)
      : id(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT)) {}
  ~PlainFile() {
    if (id >= 0) {
      H5Fclose(id);
    }
  }
  PlainFile(const PlainFile&) = delete;
  PlainFile& operator=(const PlainFile&) = delete;
};

std::vector<hsize_t> shapeOf(hid_t file, const char* name);
// The id of the last filter in dataset `name`'s pipeline (the compressor), -1 when it has none.
int lastFilterOf(hid_t file, const char* name);

template <class T>
std::vector<T> readAll(hid_t file, const char* name, hid_t memType) {
  std::size_t count = 1;
  for (const hsize_t d : shapeOf(file, name)) {
    count *= static_cast<std::size_t>(d);
  }
  std::vector<T> values(count);
  const hid_t dataset = H5Dopen2(file, name, H5P_DEFAULT);
  const herr_t status = H5Dread(dataset, memType, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
  H5Dclose(dataset);
  return status < 0 ? std::vector<T>{} : values;
}

double readDouble(hid_t object, const char* name);       // numeric attribute
std::string readString(hid_t object, const char* name);  // string attribute
std::string datasetUnits(hid_t file, const char* name);  // a dataset's "units" attribute

// An acquisition with every field set to a distinct value.
acquire::AcquisitionParams someAcquisition();
// Whether `folder` holds a writer's temporary ("*.partial-*").
bool anyPartialFile(const std::filesystem::path& folder);

// While alive, files of this process cannot grow past `bytes` (RLIMIT_FSIZE): writes then fail
// with EFBIG, as they fail with ENOSPC on a full disk. Root is bound by it too.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(std::size_t bytes);
  ~FileSizeLimit();
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;
  bool active() const { return active_; }

 private:
  unsigned long long previous_ = 0;
  bool active_ = false;
};

}  // namespace cineflow::test

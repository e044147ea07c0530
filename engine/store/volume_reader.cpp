#include "store/volume_reader.hpp"

#include <cmath>
#include <string>
#include <utility>

#include "store/compression_filters.hpp"
#include "store/hdf5_handle.hpp"
#include "store/study_group.hpp"

namespace cineflow::store {
namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& reason) {
  throw StoreError("cannot read " + path.string() + ": " + reason);
}

// A float32-convertible dataset of exactly `expected` shape, read whole.
std::vector<float> readFloats(const std::filesystem::path& path, hid_t root, const char* name,
                              const std::vector<hsize_t>& expected) {
  if (!linkExists(root, name)) {
    fail(path, std::string("/") + name + ": missing");
  }
  H5Dataset dataset(H5Dopen2(root, name, H5P_DEFAULT));
  if (!dataset) {
    fail(path, std::string("/") + name + ": expected a dataset");
  }
  const std::vector<hsize_t> shape = datasetShape(dataset.get());
  if (shape != expected) {
    fail(path, std::string("/") + name + ": shape " + shapeText(shape) + ", expected " +
                   shapeText(expected));
  }
  H5Datatype type(checkId(H5Dget_type(dataset.get()), std::string(name) + ": type"));
  if (H5Tget_class(type.get()) != H5T_FLOAT) {
    fail(path, std::string("/") + name + ": expected float32, found " + describeType(type.get()));
  }
  std::size_t count = 1;
  for (const hsize_t d : shape) {
    count *= static_cast<std::size_t>(d);
  }
  const std::string filters = unreadableFilters(dataset.get());
  if (!filters.empty()) {
    fail(path, std::string("/") + name + ": " + filters);
  }
  std::vector<float> values(count);
  if (H5Dread(dataset.get(), H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0) {
    fail(path,
         std::string("/") + name + ": read failed (truncated or corrupt?): " + errorStackText());
  }
  return values;
}

template <class T>
std::vector<T> readSeries(const std::filesystem::path& path, hid_t root, const char* name,
                          hid_t memType, std::size_t expected) {
  if (!linkExists(root, name)) {
    fail(path, std::string("/") + name + ": missing");
  }
  H5Dataset dataset(H5Dopen2(root, name, H5P_DEFAULT));
  const std::vector<hsize_t> shape = dataset ? datasetShape(dataset.get()) : std::vector<hsize_t>{};
  if (shape != std::vector<hsize_t>{expected}) {
    fail(path, std::string("/") + name + ": shape " + shapeText(shape) + ", expected [" +
                   std::to_string(expected) + "]");
  }
  std::vector<T> values(expected);
  if (H5Dread(dataset.get(), memType, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0) {
    fail(path, std::string("/") + name + ": read failed: " + errorStackText());
  }
  return values;
}

// First value and uniform step of a coordinate axis; throws unless it is evenly spaced.
void axisOf(const std::filesystem::path& path, const std::vector<double>& values, const char* name,
            double& first, double& step) {
  if (values.empty()) {
    fail(path, std::string("/") + name + ": empty");
  }
  first = values.front();
  step = values.size() > 1 ? values[1] - values[0] : 0.0;
  for (std::size_t i = 1; i < values.size(); ++i) {
    const double expected = first + static_cast<double>(i) * step;
    if (!(std::abs(values[i] - expected) <= 1e-9 * std::max(1.0, std::abs(expected)) + 1e-12)) {
      fail(path, std::string("/") + name + ": not evenly spaced at index " + std::to_string(i));
    }
  }
  if (values.size() > 1 && !(step > 0)) {
    fail(path, std::string("/") + name + ": not increasing");
  }
}

}  // namespace

LoadedVolume readVolumeFile(const std::filesystem::path& path) {
  ErrorScope scope;
  if (H5Fis_hdf5(path.c_str()) <= 0) {
    fail(path, "not an HDF5 file (missing, unreadable or no HDF5 signature)");
  }
  std::string reason;
  H5File file = openForReading(path, reason);
  if (!file) {
    fail(path, "cannot open as HDF5 (damaged or truncated?): " + reason);
  }
  const hid_t root = file.get();
  LoadedVolume loaded;
  try {
    if (!attributeExists(root, "schema")) {
      fail(path,
           "not a saved volume: it has no attribute schema (a saved volume's is "
           "\"cineflow.volume/1\"; a recording opens as a source instead)");
    }
    const std::string schema = readStringAttribute(root, "schema");
    if (schema != "cineflow.volume/1") {
      // A recording or an export of Cineflow's own: say what it is and where it opens.
      const bool recording = schema.starts_with("cineflow.rf/") ||
                             schema.starts_with("cineflow.oct/") ||
                             schema.starts_with("cineflow.bmode/");
      fail(path, recording ? "it holds frames (schema \"" + schema +
                                 "\"), not a saved volume: open it as a source to replay it "
                                 "(its volumes can then be buffered)"
                           : "attribute schema: expected \"cineflow.volume/1\", found \"" + schema +
                                 "\"");
    }
    for (const char* axis : {"x_m", "y_m", "z_m"}) {
      if (!linkExists(root, axis)) {
        fail(path, std::string("/") + axis + ": missing");
      }
    }
    const std::vector<double> x = readDoubleDataset(root, "x_m");
    const std::vector<double> y = readDoubleDataset(root, "y_m");
    const std::vector<double> z = readDoubleDataset(root, "z_m");
    process::VolumeInfo& info = loaded.info;
    info.shape = {static_cast<int>(y.size()), static_cast<int>(z.size()),
                  static_cast<int>(x.size())};
    info.slice.nx = info.shape.nx;
    info.slice.nz = info.shape.nz;
    axisOf(path, x, "x_m", info.slice.x0, info.slice.dx);
    axisOf(path, z, "z_m", info.slice.z0, info.slice.dz);
    info.elevationM = y;
    // An int64 since the attributes' types were fixed; a float64 in files written before.
    info.number = attributeExists(root, "volume_number")
                      ? static_cast<std::uint64_t>(readNumberAttribute(root, "volume_number"))
                      : 0;
    const auto ny = static_cast<hsize_t>(info.shape.ny), nz = static_cast<hsize_t>(info.shape.nz),
               nx = static_cast<hsize_t>(info.shape.nx);
    loaded.volume = readFloats(path, root, "volume", {ny, nz, nx});
    loaded.alongY = readFloats(path, root, "mip_y", {nz, nx});
    loaded.alongZ = readFloats(path, root, "mip_z", {ny, nx});
    loaded.alongX = readFloats(path, root, "mip_x", {ny, nz});
    info.sequence = readSeries<std::uint64_t>(path, root, "sequence", H5T_NATIVE_UINT64, y.size());
    info.timestampNs =
        readSeries<std::int64_t>(path, root, "timestamp_ns", H5T_NATIVE_INT64, y.size());
    StudyRead study = readStudyGroup(root);
    loaded.study = std::move(study.study);
    loaded.studyNotice = std::move(study.notice);
  } catch (const Hdf5Error& e) {
    fail(path, e.what());
  }
  return loaded;
}

}  // namespace cineflow::store

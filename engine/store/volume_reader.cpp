#include "store/volume_reader.hpp"

#include <cmath>
#include <set>
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

// Names of the root's attributes and links, collected by HDF5's iterations.
herr_t collectName(hid_t /*location*/, const char* name, const void* /*info*/, void* names) {
  static_cast<std::vector<std::string>*>(names)->emplace_back(name);
  return 0;
}
herr_t collectAttribute(hid_t location, const char* name, const H5A_info_t* info, void* names) {
  return collectName(location, name, info, names);
}
herr_t collectLink(hid_t location, const char* name, const H5L_info_t* info, void* names) {
  return collectName(location, name, info, names);
}

FileMetadata readDescription(hid_t root) {
  static const std::set<std::string> ownAttributes = {"schema", "volume_number", "compression"};
  static const std::set<std::string> ownDatasets = {
      "x_m", "y_m", "z_m", "volume", "mip_y", "mip_z", "mip_x", "sequence", "timestamp_ns"};
  FileMetadata metadata;
  std::vector<std::string> names;
  checkStatus(H5Aiterate2(root, H5_INDEX_NAME, H5_ITER_INC, nullptr, collectAttribute, &names),
              "list the root's attributes");
  for (const std::string& name : names) {
    if (ownAttributes.count(name) != 0) {
      continue;
    }
    H5Attribute attribute(checkId(H5Aopen(root, name.c_str(), H5P_DEFAULT), name + ": open"));
    H5Datatype type(checkId(H5Aget_type(attribute.get()), name + ": type"));
    switch (H5Tget_class(type.get())) {
      case H5T_STRING:
        metadata.attributes[name] = readStringAttribute(root, name.c_str());
        break;
      case H5T_FLOAT:
        metadata.attributes[name] = readNumberAttribute(root, name.c_str());
        break;
      case H5T_INTEGER:
        metadata.attributes[name] =
            static_cast<std::int64_t>(readNumberAttribute(root, name.c_str()));
        break;
      default:
        break;  // not a kind writeMetadata writes
    }
  }
  names.clear();
  hsize_t index = 0;
  checkStatus(H5Literate(root, H5_INDEX_NAME, H5_ITER_INC, &index, collectLink, &names),
              "list the root's objects");
  for (const std::string& name : names) {
    if (ownDatasets.count(name) != 0 || H5Oexists_by_name(root, name.c_str(), H5P_DEFAULT) <= 0) {
      continue;
    }
    H5O_info_t info;
    if (H5Oget_info_by_name(root, name.c_str(), &info, H5P_DEFAULT) < 0 ||
        info.type != H5O_TYPE_DATASET) {
      continue;
    }
    H5Dataset dataset(checkId(H5Dopen2(root, name.c_str(), H5P_DEFAULT), name + ": open"));
    H5Datatype type(checkId(H5Dget_type(dataset.get()), name + ": type"));
    if (H5Tget_class(type.get()) != H5T_FLOAT || datasetShape(dataset.get()).size() != 1) {
      continue;
    }
    MetadataArray array{name, readDoubleDataset(root, name.c_str()), {}};
    if (attributeExists(dataset.get(), "units")) {
      array.units = readStringAttribute(dataset.get(), "units");
    }
    metadata.arrays.push_back(std::move(array));
  }
  return metadata;
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
    try {
      loaded.metadata = readDescription(root);
    } catch (const Hdf5Error&) {
      loaded.metadata = {};  // the volume opens without its description
    }
  } catch (const Hdf5Error& e) {
    fail(path, e.what());
  }
  return loaded;
}

}  // namespace cineflow::store

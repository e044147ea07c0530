#include "store/volume_writer.hpp"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "store/acquisition_layout.hpp"
#include "store/compression_filters.hpp"
#include "store/hdf5_handle.hpp"
#include "store/staged_h5_file.hpp"

namespace cineflow::store {
namespace {

// An empty float32 dataset of `dims`, chunked as `chunk` (empty: contiguous and uncompressed) and
// compressed with `compression`, with units = "dB".
H5Dataset createFloats(hid_t root, const char* name, const std::vector<hsize_t>& dims,
                       const std::vector<hsize_t>& chunk, const Compression& compression) {
  H5Dataspace space(checkId(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr),
                            std::string(name) + ": dataspace"));
  H5PropertyList properties(checkId(H5Pcreate(H5P_DATASET_CREATE), "property list"));
  if (!chunk.empty()) {
    checkStatus(H5Pset_chunk(properties.get(), static_cast<int>(chunk.size()), chunk.data()),
                std::string(name) + ": set chunk");
    applyCompression(properties.get(), compression, name);
  }
  // No chunk cache: each chunk goes to the file during H5Dwrite, so a full disk shows there, and
  // no dirty chunk is left for a close to flush (a close that fails keeps its buffers for good).
  H5PropertyList access(checkId(H5Pcreate(H5P_DATASET_ACCESS), "access property list"));
  checkStatus(H5Pset_chunk_cache(access.get(), 0, 0, H5D_CHUNK_CACHE_W0_DEFAULT),
              std::string(name) + ": set chunk cache");
  H5Dataset dataset(checkId(H5Dcreate2(root, name, H5T_IEEE_F32LE, space.get(), H5P_DEFAULT,
                                       properties.get(), access.get()),
                            std::string(name) + ": create"));
  writeStringAttribute(dataset.get(), "units", "dB");
  return dataset;
}

// A whole (small, contiguous) float32 dataset.
H5Dataset writeFloats(hid_t root, const char* name, std::span<const float> values,
                      const std::vector<hsize_t>& dims) {
  H5Dataset dataset = createFloats(root, name, dims, {}, {});
  checkStatus(
      H5Dwrite(dataset.get(), H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
      std::string(name) + ": write");
  return dataset;
}

// The volume [ny][nz][nx], one slice (one chunk) per write, calling `progress` (if set) with the
// fraction written after each.
H5Dataset writeSlices(hid_t root, const char* name, std::span<const float> values, hsize_t ny,
                      hsize_t nz, hsize_t nx, const Compression& compression,
                      const std::function<void(double)>& progress) {
  H5Dataset dataset = createFloats(root, name, {ny, nz, nx}, {1, nz, nx}, compression);
  H5Dataspace file(checkId(H5Dget_space(dataset.get()), std::string(name) + ": file space"));
  const hsize_t count[3] = {1, nz, nx};
  H5Dataspace memory(checkId(H5Screate_simple(3, count, nullptr), std::string(name) + ": slice"));
  const std::size_t perSlice = static_cast<std::size_t>(nz * nx);
  for (hsize_t y = 0; y < ny; ++y) {
    const hsize_t start[3] = {y, 0, 0};
    checkStatus(H5Sselect_hyperslab(file.get(), H5S_SELECT_SET, start, nullptr, count, nullptr),
                std::string(name) + ": select");
    checkStatus(H5Dwrite(dataset.get(), H5T_NATIVE_FLOAT, memory.get(), file.get(), H5P_DEFAULT,
                         values.data() + static_cast<std::size_t>(y) * perSlice),
                std::string(name) + ": write");
    if (progress) {
      progress(static_cast<double>(y + 1) / static_cast<double>(ny));
    }
  }
  return dataset;
}

template <class T>
H5Dataset writeSeries(hid_t root, const char* name, hid_t fileType, hid_t memType,
                      const std::vector<T>& values) {
  const hsize_t dims[1] = {static_cast<hsize_t>(values.size())};
  H5Dataspace space(checkId(H5Screate_simple(1, dims, nullptr), std::string(name) + ": space"));
  H5Dataset dataset(
      checkId(H5Dcreate2(root, name, fileType, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
              std::string(name) + ": create"));
  checkStatus(H5Dwrite(dataset.get(), memType, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
              std::string(name) + ": write");
  return dataset;
}

}  // namespace

void writeVolumeFile(const std::filesystem::path& path, const process::VolumeInfo& info,
                     const HostVolume& data, const FileMetadata& metadata,
                     const AttributeMap& attributes, const Compression& compression,
                     const std::function<void(double)>& progress) {
  ErrorScope scope;
  const process::VolumeShape& shape = info.shape;
  const auto ny = static_cast<std::size_t>(shape.ny);
  std::string problem;
  if (shape.voxels() == 0) {
    problem = "the volume is empty";
  } else if (data.volume.size() != shape.voxels() || data.alongY.size() != shape.alongY() ||
             data.alongZ.size() != shape.alongZ() || data.alongX.size() != shape.alongX()) {
    problem = "the data does not match the volume's shape";
  } else if (info.elevationM.size() != ny || info.sequence.size() != ny ||
             info.timestampNs.size() != ny) {
    problem = "the slice metadata does not match the volume's " + std::to_string(ny) + " slices";
  } else {
    problem = compressionProblem(compression);
  }
  if (!problem.empty()) {
    throw StoreError("cannot save " + path.string() + ": " + problem);
  }

  StagedH5File file(path);
  std::vector<H5Dataset> datasets;
  try {
    const hid_t root = file.get();
    AttributeMap extra = attributes;
    extra["volume_number"] = static_cast<std::int64_t>(info.number);
    extra["compression"] = attributeText(compression);
    writeMetadata(root, "cineflow.volume/1", metadata, extra);
    writeMetres(root, "x_m", axis(shape.nx, info.slice.x0, info.slice.dx));
    writeMetres(root, "z_m", axis(shape.nz, info.slice.z0, info.slice.dz));
    writeMetres(root, "y_m", info.elevationM);
    const auto nz = static_cast<hsize_t>(shape.nz), nx = static_cast<hsize_t>(shape.nx);
    const auto slices = static_cast<hsize_t>(shape.ny);
    datasets.push_back(
        writeSlices(root, "volume", data.volume, slices, nz, nx, compression, progress));
    writeStringAttribute(datasets.back().get(), "dimensions", "y, z, x");
    datasets.push_back(writeFloats(root, "mip_y", data.alongY, {nz, nx}));
    writeStringAttribute(datasets.back().get(), "dimensions", "z, x (maximum over y)");
    datasets.push_back(writeFloats(root, "mip_z", data.alongZ, {slices, nx}));
    writeStringAttribute(datasets.back().get(), "dimensions", "y, x (maximum over z)");
    datasets.push_back(writeFloats(root, "mip_x", data.alongX, {slices, nz}));
    writeStringAttribute(datasets.back().get(), "dimensions", "y, z (maximum over x)");
    datasets.push_back(
        writeSeries(root, "sequence", H5T_STD_U64LE, H5T_NATIVE_UINT64, info.sequence));
    datasets.push_back(
        writeSeries(root, "timestamp_ns", H5T_STD_I64LE, H5T_NATIVE_INT64, info.timestampNs));
    writeStringAttribute(datasets.back().get(), "units", "ns");
    writeStringAttribute(datasets.back().get(), "clock", "steady (monotonic), arbitrary origin");
  } catch (const Hdf5Error& e) {
    datasets.clear();
    file.fail("write", e.what());
  }
  // Close every dataset first (each may still write): a file closed while objects are open stays
  // open inside HDF5 until they close, and a failure then leaves it there.
  const char* names[] = {"volume", "mip_y", "mip_z", "mip_x", "sequence", "timestamp_ns"};
  std::string reason;
  for (std::size_t i = 0; i < datasets.size(); ++i) {
    if (!datasets[i].close() && reason.empty()) {
      reason = std::string(names[i]) + ": " + errorStackText();
    }
  }
  if (!reason.empty()) {
    file.fail("close", reason);
  }
  file.commit({});
}

}  // namespace cineflow::store

#include "store/bmode_writer.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "store/acquisition_layout.hpp"
#include "store/hdf5_handle.hpp"
#include "store/staged_h5_file.hpp"

namespace cineflow::store {

namespace {

// Creates an empty 1-D dataset that grows by one element per frame.
H5Dataset createGrowingSeries(hid_t file, const char* name, hid_t fileType, const char* units) {
  const hsize_t dims[1] = {0};
  const hsize_t maxDims[1] = {H5S_UNLIMITED};
  const hsize_t chunk[1] = {1024};
  H5Dataspace space(checkId(H5Screate_simple(1, dims, maxDims), std::string(name) + ": dataspace"));
  H5PropertyList properties(checkId(H5Pcreate(H5P_DATASET_CREATE), "property list"));
  checkStatus(H5Pset_chunk(properties.get(), 1, chunk), std::string(name) + ": set chunk");
  H5Dataset dataset(checkId(
      H5Dcreate2(file, name, fileType, space.get(), H5P_DEFAULT, properties.get(), H5P_DEFAULT),
      std::string(name) + ": create"));
  if (units != nullptr) {
    writeStringAttribute(dataset.get(), "units", units);
  }
  return dataset;
}

// Grows `dataset` to `frames` along its first dimension and writes `value` (`rank`-D, one frame
// of `frameDims`) at index frames - 1.
void appendAlongFirst(hid_t dataset, hid_t memType, const void* value, hsize_t frames,
                      std::span<const hsize_t> frameDims, const std::string& what) {
  std::vector<hsize_t> dims{frames};
  dims.insert(dims.end(), frameDims.begin(), frameDims.end());
  checkStatus(H5Dset_extent(dataset, dims.data()), what + ": extend");
  H5Dataspace fileSpace(checkId(H5Dget_space(dataset), what + ": dataspace"));
  std::vector<hsize_t> start(dims.size(), 0);
  start[0] = frames - 1;
  std::vector<hsize_t> count = dims;
  count[0] = 1;
  checkStatus(H5Sselect_hyperslab(fileSpace.get(), H5S_SELECT_SET, start.data(), nullptr,
                                  count.data(), nullptr),
              what + ": select");
  H5Dataspace memSpace(
      checkId(H5Screate_simple(static_cast<int>(count.size()), count.data(), nullptr),
              what + ": memory dataspace"));
  checkStatus(H5Dwrite(dataset, memType, memSpace.get(), fileSpace.get(), H5P_DEFAULT, value),
              what + ": write");
}

}  // namespace

struct BmodeWriter::Impl {
  explicit Impl(const std::filesystem::path& path) : file(path) {}

  StagedH5File file;
  process::ImageGeometry geometry;
  H5Dataset bmode, sequence, timestamp, elevation;
  H5Dataset fresh;                // with flow layers: /flow_fresh
  std::array<H5Dataset, 3> flow;  // an image with flow layers: velocity, variance, power
  std::uint64_t frames = 0;
  std::string incompleteReason;

  [[noreturn]] void fail(const std::string& operation, const std::string& reason) {
    closeDatasets();
    file.fail(operation, reason);
  }

  void closeDatasets() noexcept {
    bmode.reset();
    for (H5Dataset& layer : flow) {
      layer.reset();
    }
    sequence.reset();
    timestamp.reset();
    elevation.reset();
    fresh.reset();
  }

  // float32 [frames][z][x], one frame per chunk (appends and frame reads touch one).
  H5Dataset createFrameSeries(hid_t root, const char* name, const char* units) const {
    const std::string what(name);
    const hsize_t nz = static_cast<hsize_t>(geometry.nz), nx = static_cast<hsize_t>(geometry.nx);
    const hsize_t dims[3] = {0, nz, nx};
    const hsize_t maxDims[3] = {H5S_UNLIMITED, nz, nx};
    const hsize_t chunk[3] = {1, nz, nx};
    H5Dataspace space(checkId(H5Screate_simple(3, dims, maxDims), what + ": dataspace"));
    H5PropertyList properties(checkId(H5Pcreate(H5P_DATASET_CREATE), "property list"));
    checkStatus(H5Pset_chunk(properties.get(), 3, chunk), what + ": set chunk");
    H5Dataset dataset(checkId(H5Dcreate2(root, name, H5T_IEEE_F32LE, space.get(), H5P_DEFAULT,
                                         properties.get(), H5P_DEFAULT),
                              what + ": create"));
    writeStringAttribute(dataset.get(), "units", units);
    writeStringAttribute(dataset.get(), "dimensions", "frame, z, x");
    return dataset;
  }

  void writeLayout(const FileMetadata& metadata, const AttributeMap& attributes) {
    const hid_t root = file.get();
    writeMetadata(root, "cineflow.bmode/1", metadata, attributes);
    writeMetres(root, "x_m", axis(geometry.nx, geometry.x0, geometry.dx));
    writeMetres(root, "z_m", axis(geometry.nz, geometry.z0, geometry.dz));

    bmode = createFrameSeries(root, "bmode_db", "dB");
    if (geometry.hasFlow()) {
      flow[0] = createFrameSeries(root, "velocity_m_s", "m/s");
      writeStringAttribute(flow[0].get(), "sign", "positive towards the probe");
      writeNumberAttribute(flow[0].get(), "aliasing_velocity_m_s", geometry.aliasingVelocity);
      flow[1] = createFrameSeries(root, "variance_m2_s2", "m^2/s^2");
      flow[2] = createFrameSeries(root, "power_db", "dB");
      for (H5Dataset& layer : flow) {
        writeStringAttribute(layer.get(), "outside",
                             "NaN outside the colour box and before the "
                             "first full ensemble");
      }
    }
    sequence = createGrowingSeries(root, "sequence", H5T_STD_U64LE, nullptr);
    timestamp = createGrowingSeries(root, "timestamp_ns", H5T_STD_I64LE, "ns");
    writeStringAttribute(timestamp.get(), "clock", "steady (monotonic), arbitrary origin");
    elevation = createGrowingSeries(root, "elevation_m", H5T_IEEE_F64LE, "m");
    if (geometry.hasFlow()) {
      fresh = createGrowingSeries(root, "flow_fresh", H5T_STD_U8LE, nullptr);
      writeStringAttribute(fresh.get(), "meaning",
                           "1: the frame's flow layers hold an estimate made at that frame; 0: "
                           "they repeat an earlier one (block ensembles) or hold none yet");
    }
  }
};

BmodeWriter::BmodeWriter(const std::filesystem::path& finalPath,
                         const process::ImageGeometry& geometry, const FileMetadata& metadata,
                         const AttributeMap& attributes) {
  ErrorScope scope;
  const bool finite = std::isfinite(geometry.x0) && std::isfinite(geometry.dx) &&
                      std::isfinite(geometry.z0) && std::isfinite(geometry.dz);
  if (geometry.nx < 1 || geometry.nz < 1 || !finite) {
    throw StoreError("cannot save " + finalPath.string() + ": create: invalid image geometry " +
                     std::to_string(geometry.nx) + " x " + std::to_string(geometry.nz) + " pixels");
  }
  impl_ = std::make_unique<Impl>(finalPath);
  impl_->geometry = geometry;
  try {
    impl_->writeLayout(metadata, attributes);
  } catch (const Hdf5Error& e) {
    impl_->fail("write header", e.what());
  }
}

BmodeWriter::~BmodeWriter() {
  if (impl_ && !impl_->file.isCommitted()) {
    ErrorScope scope;
    impl_->closeDatasets();
    impl_->file.discard();
  }
}

void BmodeWriter::appendFrame(const acquire::FrameHeader& header, std::span<const float> image,
                              bool fresh) {
  ErrorScope scope;
  Impl& s = *impl_;
  s.file.requireOpen("append frame");
  if (image.size() != s.geometry.values()) {
    // A caller bug, not a file problem: the file stays usable.
    throw StoreError("cannot save " + s.file.finalPath().string() + ": append frame: image of " +
                     std::to_string(image.size()) + " values, expected " +
                     std::to_string(s.geometry.values()));
  }
  const hsize_t n = s.frames + 1;
  const hsize_t frameDims[2] = {static_cast<hsize_t>(s.geometry.nz),
                                static_cast<hsize_t>(s.geometry.nx)};
  try {
    appendAlongFirst(s.bmode.get(), H5T_NATIVE_FLOAT, image.data(), n, frameDims, "bmode_db");
    if (s.geometry.hasFlow()) {
      const char* names[] = {"velocity_m_s", "variance_m2_s2", "power_db"};
      for (std::size_t layer = 0; layer < s.flow.size(); ++layer) {
        appendAlongFirst(s.flow[layer].get(), H5T_NATIVE_FLOAT,
                         image.data() + (layer + 1) * s.geometry.pixels(), n, frameDims,
                         names[layer]);
      }
      const std::uint8_t flag = fresh ? 1 : 0;
      appendAlongFirst(s.fresh.get(), H5T_NATIVE_UINT8, &flag, n, {}, "flow_fresh");
    }
    appendAlongFirst(s.sequence.get(), H5T_NATIVE_UINT64, &header.sequence, n, {}, "sequence");
    appendAlongFirst(s.timestamp.get(), H5T_NATIVE_INT64, &header.timestampNs, n, {},
                     "timestamp_ns");
    appendAlongFirst(s.elevation.get(), H5T_NATIVE_DOUBLE, &header.slice.elevationM, n, {},
                     "elevation_m");
  } catch (const Hdf5Error& e) {
    s.fail("append frame " + std::to_string(s.frames), e.what());
  }
  s.frames = n;
}

void BmodeWriter::markIncomplete(const std::string& reason) {
  impl_->incompleteReason = reason.empty() ? "ended early" : reason;
}

void BmodeWriter::finish() {
  ErrorScope scope;
  Impl& s = *impl_;
  s.file.requireOpen("finish");
  try {
    writeNumberAttribute(s.file.get(), "complete", s.incompleteReason.empty() ? 1.0 : 0.0);
    if (!s.incompleteReason.empty()) {
      writeStringAttribute(s.file.get(), "incomplete_reason", s.incompleteReason);
    }
  } catch (const Hdf5Error& e) {
    s.fail("finish", e.what());
  }
  s.file.commit({{&s.bmode, "bmode_db"},
                 {&s.flow[0], "velocity_m_s"},
                 {&s.flow[1], "variance_m2_s2"},
                 {&s.flow[2], "power_db"},
                 {&s.sequence, "sequence"},
                 {&s.timestamp, "timestamp_ns"},
                 {&s.elevation, "elevation_m"},
                 {&s.fresh, "flow_fresh"}});
}

std::uint64_t BmodeWriter::frames() const {
  return impl_->frames;
}
const std::filesystem::path& BmodeWriter::finalPath() const {
  return impl_->file.finalPath();
}
const std::filesystem::path& BmodeWriter::temporaryPath() const {
  return impl_->file.temporaryPath();
}

}  // namespace cineflow::store

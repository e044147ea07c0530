#include "store/bmode_writer.hpp"

#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <system_error>
#include <vector>

#include "store/hdf5_handle.hpp"

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

std::vector<double> coordinates(int count, double first, double step) {
  std::vector<double> values(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    values[static_cast<std::size_t>(i)] = first + i * step;
  }
  return values;
}

}  // namespace

struct BmodeWriter::Impl {
  enum class State { Open, Failed, Finished };

  std::filesystem::path finalPath;
  std::filesystem::path temporaryPath;
  process::ImageGeometry geometry;
  H5File file;
  H5Dataset bmode, sequence, timestamp, elevation;
  std::uint64_t frames = 0;
  State state = State::Open;

  [[noreturn]] void fail(const std::string& operation, const std::string& reason) {
    discard();
    throw StoreError("cannot save " + finalPath.string() + ": " + operation + ": " + reason);
  }

  // Closes every handle and removes the temporary file; safe to call repeatedly.
  void discard() noexcept {
    state = State::Failed;
    bmode.reset();
    sequence.reset();
    timestamp.reset();
    elevation.reset();
    file.reset();
    H5Eclear2(H5E_DEFAULT);
    std::error_code ignored;
    // After a failed close HDF5 keeps its descriptor open, which would hold the removed file's
    // blocks until exit; emptying the file first gives a full disk its space back now.
    if (std::filesystem::is_regular_file(temporaryPath, ignored)) {
      std::filesystem::resize_file(temporaryPath, 0, ignored);
    }
    std::filesystem::remove(temporaryPath, ignored);
  }

  void writeLayout(const acquire::AcquisitionParams& acq, const AttributeMap& attributes) {
    const hid_t root = file.get();
    writeStringAttribute(root, "schema", "cineflow.bmode/1");
    writeNumberAttribute(root, "sampling_frequency_hz", acq.samplingFrequencyHz);
    writeNumberAttribute(root, "center_frequency_hz", acq.centerFrequencyHz);
    writeNumberAttribute(root, "sound_speed_m_s", acq.soundSpeedMPerS);
    writeNumberAttribute(root, "t0_s", acq.t0S);
    writeNumberAttribute(root, "samples", acq.samples);
    writeNumberAttribute(root, "fractional_bandwidth", acq.fractionalBandwidth);
    writeNumberAttribute(root, "frames_per_volume", acq.framesPerVolume);
    for (const auto& [name, value] : attributes) {
      if (const auto* text = std::get_if<std::string>(&value)) {
        writeStringAttribute(root, name.c_str(), *text);
      } else {
        writeNumberAttribute(root, name.c_str(), std::get<double>(value));
      }
    }
    H5Dataset angles = writeDoubleDataset(root, "angles_rad", acq.anglesRad);
    writeStringAttribute(angles.get(), "units", "rad");
    H5Dataset elements = writeDoubleDataset(root, "element_x_m", acq.elementXM);
    writeStringAttribute(elements.get(), "units", "m");
    H5Dataset x =
        writeDoubleDataset(root, "x_m", coordinates(geometry.nx, geometry.x0, geometry.dx));
    writeStringAttribute(x.get(), "units", "m");
    H5Dataset z =
        writeDoubleDataset(root, "z_m", coordinates(geometry.nz, geometry.z0, geometry.dz));
    writeStringAttribute(z.get(), "units", "m");

    const hsize_t nz = static_cast<hsize_t>(geometry.nz), nx = static_cast<hsize_t>(geometry.nx);
    const hsize_t dims[3] = {0, nz, nx};
    const hsize_t maxDims[3] = {H5S_UNLIMITED, nz, nx};
    const hsize_t chunk[3] = {1, nz, nx};  // one frame per chunk: appends and frame reads touch one
    H5Dataspace space(checkId(H5Screate_simple(3, dims, maxDims), "bmode_db: dataspace"));
    H5PropertyList properties(checkId(H5Pcreate(H5P_DATASET_CREATE), "property list"));
    checkStatus(H5Pset_chunk(properties.get(), 3, chunk), "bmode_db: set chunk");
    bmode = H5Dataset(checkId(H5Dcreate2(root, "bmode_db", H5T_IEEE_F32LE, space.get(), H5P_DEFAULT,
                                         properties.get(), H5P_DEFAULT),
                              "bmode_db: create"));
    writeStringAttribute(bmode.get(), "units", "dB");
    writeStringAttribute(bmode.get(), "dimensions", "frame, z, x");
    sequence = createGrowingSeries(root, "sequence", H5T_STD_U64LE, nullptr);
    timestamp = createGrowingSeries(root, "timestamp_ns", H5T_STD_I64LE, "ns");
    writeStringAttribute(timestamp.get(), "clock", "steady (monotonic), arbitrary origin");
    elevation = createGrowingSeries(root, "elevation_m", H5T_IEEE_F64LE, "m");
  }
};

BmodeWriter::BmodeWriter(const std::filesystem::path& finalPath,
                         const process::ImageGeometry& geometry,
                         const acquire::AcquisitionParams& acquisition,
                         const AttributeMap& attributes)
    : impl_(std::make_unique<Impl>()) {
  ErrorScope scope;
  Impl& s = *impl_;
  s.finalPath = finalPath;
  s.temporaryPath = finalPath;
  s.temporaryPath += ".partial-" + std::to_string(::getpid());
  s.geometry = geometry;
  if (finalPath.empty() || !finalPath.has_filename()) {
    s.fail("create", "the path names no file");
  }
  const bool finite = std::isfinite(geometry.x0) && std::isfinite(geometry.dx) &&
                      std::isfinite(geometry.z0) && std::isfinite(geometry.dz);
  if (geometry.nx < 1 || geometry.nz < 1 || !finite) {
    s.fail("create", "invalid image geometry " + std::to_string(geometry.nx) + " x " +
                         std::to_string(geometry.nz) + " pixels");
  }
  // Clear reasons for the usual mistakes; HDF5's own message for them is long and indirect.
  const std::filesystem::path directory =
      finalPath.has_parent_path() ? finalPath.parent_path() : std::filesystem::path(".");
  std::error_code ec;
  if (!std::filesystem::is_directory(directory, ec)) {
    s.fail("create", std::filesystem::exists(directory, ec)
                         ? directory.string() + " is not a directory"
                         : "directory " + directory.string() + " does not exist");
  }
  if (::access(directory.c_str(), W_OK) != 0) {
    s.fail("create",
           "directory " + directory.string() + " is not writable (" + std::strerror(errno) + ")");
  }
  s.file = H5File(H5Fcreate(s.temporaryPath.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
  if (!s.file) {
    const std::string stack = errorStackText();
    // Do not remove anything here: the temporary name may belong to something we did not create.
    s.state = Impl::State::Failed;
    throw StoreError("cannot save " + finalPath.string() + ": create temporary file " +
                     s.temporaryPath.string() + " failed (HDF5: " + stack + ")");
  }
  try {
    s.writeLayout(acquisition, attributes);
  } catch (const Hdf5Error& e) {
    s.fail("write header", e.what());
  }
}

BmodeWriter::~BmodeWriter() {
  if (impl_ && impl_->state != Impl::State::Finished) {
    ErrorScope scope;
    impl_->discard();
  }
}

void BmodeWriter::appendFrame(const acquire::FrameHeader& header, std::span<const float> image) {
  ErrorScope scope;
  Impl& s = *impl_;
  if (s.state != Impl::State::Open) {
    throw StoreError(
        "cannot save " + s.finalPath.string() + ": append frame: the writer is " +
        (s.state == Impl::State::Finished ? "finished" : "spoiled by an earlier error"));
  }
  if (image.size() != s.geometry.pixels()) {
    // A caller bug, not a file problem: the file stays usable.
    throw StoreError("cannot save " + s.finalPath.string() + ": append frame: image of " +
                     std::to_string(image.size()) + " pixels, expected " +
                     std::to_string(s.geometry.pixels()));
  }
  const hsize_t n = s.frames + 1;
  const hsize_t frameDims[2] = {static_cast<hsize_t>(s.geometry.nz),
                                static_cast<hsize_t>(s.geometry.nx)};
  try {
    appendAlongFirst(s.bmode.get(), H5T_NATIVE_FLOAT, image.data(), n, frameDims, "bmode_db");
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

void BmodeWriter::finish() {
  ErrorScope scope;
  Impl& s = *impl_;
  if (s.state != Impl::State::Open) {
    throw StoreError(
        "cannot save " + s.finalPath.string() + ": finish: the writer is " +
        (s.state == Impl::State::Finished ? "already finished" : "spoiled by an earlier error"));
  }
  try {
    checkStatus(H5Fflush(s.file.get(), H5F_SCOPE_GLOBAL), "flush");
  } catch (const Hdf5Error& e) {
    s.fail("finish", e.what());
  }
  // Every object must be closed before the file, or H5Fclose defers the real close (and its
  // errors, such as a full disk) to the last object's close. Each call clears HDF5's error
  // stack, so the first failure's reason is kept as it happens.
  std::string reason;
  auto closeOne = [&reason](auto& handle, const char* name) {
    if (!handle.close() && reason.empty()) {
      reason = std::string(name) + ": " + errorStackText();
    }
  };
  closeOne(s.bmode, "bmode_db");
  closeOne(s.sequence, "sequence");
  closeOne(s.timestamp, "timestamp_ns");
  closeOne(s.elevation, "elevation_m");
  closeOne(s.file, "file");
  if (!reason.empty()) {
    s.fail("close", reason);
  }
  std::error_code ec;
  std::filesystem::rename(s.temporaryPath, s.finalPath, ec);
  if (ec) {
    s.fail("rename " + s.temporaryPath.string(), ec.message());
  }
  s.state = Impl::State::Finished;
}

std::uint64_t BmodeWriter::frames() const {
  return impl_->frames;
}
const std::filesystem::path& BmodeWriter::finalPath() const {
  return impl_->finalPath;
}
const std::filesystem::path& BmodeWriter::temporaryPath() const {
  return impl_->temporaryPath;
}

}  // namespace cineflow::store

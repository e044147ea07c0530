#include "oct/oct_writer.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include "store/acquisition_layout.hpp"
#include "store/hdf5_handle.hpp"
#include "store/staged_h5_file.hpp"
#include "store/store_error.hpp"

namespace cineflow::oct {

using store::checkId;
using store::checkStatus;
using store::H5Dataset;
using store::H5Dataspace;
using store::Hdf5Error;
using store::StoreError;

namespace {

[[noreturn]] void refuse(const std::filesystem::path& path, const std::string& problem) {
  throw StoreError("cannot save " + path.string() + ": " + problem);
}

}  // namespace

store::FileMetadata recordingMetadata(const OctAcquisition& acquisition,
                                      const std::optional<OctDispersion>& dispersion) {
  store::FileMetadata metadata;
  metadata.attributes = {
      {"bit_depth", std::int64_t{acquisition.bitDepth}},
      {"centre_wavelength_m", acquisition.centreWavelengthM},
      {"bandwidth_m", acquisition.bandwidthM},
      {"bscans_per_volume", std::int64_t{acquisition.bscansPerVolume}},
      {"bidirectional", std::int64_t{acquisition.bidirectional ? 1 : 0}},
      {"flyback_ascans", std::int64_t{acquisition.flybackAscans}},
      {"lateral_step_m", acquisition.lateralStepM},
      {"elevation_step_m", acquisition.elevationStepM},
      {"line_rate_hz", acquisition.lineRateHz},
  };
  if (dispersion) {
    metadata.attributes.emplace("dispersion_a2_rad", dispersion->a2Rad);
    metadata.attributes.emplace("dispersion_a3_rad", dispersion->a3Rad);
    metadata.attributes.emplace("dispersion_centre_wavelength_m",
                                dispersion->centreWavelengthM > 0 ? dispersion->centreWavelengthM
                                                                  : acquisition.centreWavelengthM);
  }
  metadata.arrays = {{"wavelength_m", acquisition.wavelengthM, "m"}};
  return metadata;
}

struct OctRecordingWriter::State {
  State(const std::filesystem::path& path, const OctAcquisition& acq, std::uint64_t count)
      : file(path), acquisition(acq), frames(count) {}

  store::StagedH5File file;
  OctAcquisition acquisition;
  std::uint64_t frames = 0;
  std::uint64_t written = 0;
  H5Dataset spectra;
  H5Dataspace fileSpace;
};

OctRecordingWriter::OctRecordingWriter(const std::filesystem::path& path,
                                       const OctAcquisition& acquisition, std::uint64_t frames,
                                       const store::AttributeMap& extra,
                                       std::optional<OctDispersion> dispersion) {
  try {
    acquisition.validate();
  } catch (const std::invalid_argument& e) {
    refuse(path, e.what());
  }
  if (acquisition.bitDepth != 12 && acquisition.bitDepth != 16) {
    refuse(path, "bit depth " + std::to_string(acquisition.bitDepth) + ": " + kOctSchema +
                     " records 12- or 16-bit spectra");
  }
  if (frames == 0) {
    refuse(path, "a recording needs at least one frame");
  }
  if (static_cast<std::uint64_t>(acquisition.bscansPerVolume) > frames) {
    refuse(path, std::to_string(acquisition.bscansPerVolume) +
                     " B-scans per volume, but the recording has only " + std::to_string(frames) +
                     " frame(s): not one volume");
  }
  const store::FileMetadata metadata = recordingMetadata(acquisition, dispersion);
  for (const auto& [name, value] : extra) {
    if (name == "schema" || metadata.attributes.contains(name) || name.starts_with("dispersion_")) {
      refuse(path, "extra attribute " + name + " would replace one of " + kOctSchema + "'s own");
    }
  }
  const store::ErrorScope quiet;
  state_ = std::make_unique<State>(path, acquisition, frames);
  store::StagedH5File& file = state_->file;
  try {
    const hid_t root = file.get();
    store::writeMetadata(root, kOctSchema, metadata, extra);
    const hsize_t dims[3] = {frames, static_cast<hsize_t>(acquisition.ascans),
                             static_cast<hsize_t>(acquisition.samples)};
    const hsize_t chunk[3] = {1, dims[1], dims[2]};
    H5Dataspace space(checkId(H5Screate_simple(3, dims, nullptr), "spectra: dataspace"));
    store::H5PropertyList properties(
        checkId(H5Pcreate(H5P_DATASET_CREATE), "spectra: property list"));
    checkStatus(H5Pset_chunk(properties.get(), 3, chunk), "spectra: set chunk");
    // Each frame is written once: no chunk cache, so that a frame reaches the disk when it is
    // appended and a full disk fails that append (not the final flush, whose failure leaves
    // HDF5 unable to close the file).
    store::H5PropertyList access(checkId(H5Pcreate(H5P_DATASET_ACCESS), "spectra: access list"));
    checkStatus(H5Pset_chunk_cache(access.get(), 0, 0, 1.0), "spectra: no chunk cache");
    state_->spectra = H5Dataset(checkId(H5Dcreate2(root, "spectra", H5T_STD_U16LE, space.get(),
                                                   H5P_DEFAULT, properties.get(), access.get()),
                                        "spectra: create"));
    store::writeStringAttribute(state_->spectra.get(), "dimensions", "frames, ascans, samples");
    store::writeStringAttribute(state_->spectra.get(), "units", "counts");
    state_->fileSpace = std::move(space);
  } catch (const Hdf5Error& e) {
    state_->spectra.reset();
    state_->fileSpace.reset();
    file.fail("create", e.what());
  }
}

OctRecordingWriter::~OctRecordingWriter() {
  if (state_) {
    const store::ErrorScope quiet;
    state_->spectra.reset();
    state_->fileSpace.reset();
    state_.reset();  // StagedH5File removes an uncommitted temporary
  }
}

std::uint64_t OctRecordingWriter::framesWritten() const {
  return state_->written;
}

void OctRecordingWriter::append(std::span<const std::uint16_t> spectra) {
  State& s = *state_;
  const std::string operation = "append frame " + std::to_string(s.written);
  s.file.requireOpen(operation);
  const std::size_t perFrame = s.acquisition.samplesPerFrame();
  const std::uint64_t count = spectra.size() / perFrame;
  if (spectra.size() % perFrame != 0 || count > s.frames - s.written) {
    s.spectra.reset();
    s.fileSpace.reset();
    s.file.fail(operation, std::to_string(spectra.size()) + " samples are not whole frames of " +
                               std::to_string(perFrame) + " within the " +
                               std::to_string(s.frames - s.written) + " frame(s) still missing");
  }
  if (count == 0) {
    return;
  }
  const store::ErrorScope quiet;
  try {
    const hsize_t start[3] = {s.written, 0, 0};
    const hsize_t extent[3] = {count, static_cast<hsize_t>(s.acquisition.ascans),
                               static_cast<hsize_t>(s.acquisition.samples)};
    checkStatus(
        H5Sselect_hyperslab(s.fileSpace.get(), H5S_SELECT_SET, start, nullptr, extent, nullptr),
        "spectra: select frames");
    H5Dataspace memory(checkId(H5Screate_simple(3, extent, nullptr), "spectra: memory space"));
    checkStatus(H5Dwrite(s.spectra.get(), H5T_NATIVE_UINT16, memory.get(), s.fileSpace.get(),
                         H5P_DEFAULT, spectra.data()),
                "spectra: write");
  } catch (const Hdf5Error& e) {
    s.spectra.reset();
    s.fileSpace.reset();
    s.file.fail(operation, e.what());
  }
  s.written += count;
}

void OctRecordingWriter::finish() {
  State& s = *state_;
  s.file.requireOpen("finish");
  if (s.written != s.frames) {
    s.spectra.reset();
    s.fileSpace.reset();
    s.file.fail("finish", "only " + std::to_string(s.written) + " of " + std::to_string(s.frames) +
                              " frames were written");
  }
  const store::ErrorScope quiet;
  s.fileSpace.reset();
  s.file.commit({{&s.spectra, "spectra"}});
}

void writeOctRecording(const std::filesystem::path& path, const OctAcquisition& acquisition,
                       std::span<const std::uint16_t> spectra, std::uint64_t frames,
                       const store::AttributeMap& extra, std::optional<OctDispersion> dispersion) {
  const std::size_t expected = static_cast<std::size_t>(frames) * acquisition.samplesPerFrame();
  if (spectra.size() != expected) {
    refuse(path, "the spectra hold " + std::to_string(spectra.size()) + " samples, expected " +
                     std::to_string(expected) + " (" + std::to_string(frames) + " frames of " +
                     std::to_string(acquisition.ascans) + " A-scans x " +
                     std::to_string(acquisition.samples) + " samples)");
  }
  OctRecordingWriter writer(path, acquisition, frames, extra, dispersion);
  writer.append(spectra);
  writer.finish();
}

void recordOctSource(const std::filesystem::path& path, OctSource& source,
                     const store::AttributeMap& extra, std::optional<OctDispersion> dispersion,
                     const acquire::ProgressFn& progress) {
  const OctAcquisition& acquisition = source.acquisition();
  const std::uint64_t frames = source.frameCount();
  OctRecordingWriter writer(path, acquisition, frames, extra, dispersion);
  std::vector<std::uint16_t> frame(acquisition.samplesPerFrame());
  const std::span<std::byte> bytes = std::as_writable_bytes(std::span(frame));
  for (std::uint64_t index = 0; index < frames; ++index) {
    acquire::SliceInfo slice;
    source.readFrame(index, bytes, slice);
    writer.append(frame);
    if (progress) {
      progress(static_cast<double>(index + 1) / static_cast<double>(frames),
               "recording " + source.describe());
    }
  }
  writer.finish();
}

}  // namespace cineflow::oct

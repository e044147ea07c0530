#include "oct/oct_file_source.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <system_error>
#include <vector>

#include "acquire/input_bounds.hpp"
#include "oct/oct_params.hpp"
#include "store/hdf5_handle.hpp"
#include "store/recording_attributes.hpp"
#include "store/replay_file.hpp"

namespace cineflow::oct {

using acquire::numberText;
using acquire::SourceError;
using store::checkId;
using store::ErrorScope;
using store::Hdf5Error;

namespace {

constexpr const char* kSpectra = "/spectra";

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& problem) {
  throw SourceError(path.string() + ": " + problem);
}

bool isUint16(hid_t type) {
  return H5Tget_class(type) == H5T_INTEGER && H5Tget_size(type) == 2 &&
         H5Tget_sign(type) == H5T_SGN_NONE;
}

// Cineflow's other HDF5 files, said as what they are when opened as an OCT recording; "" for
// anything else.
std::string whatElse(hid_t root, const std::string& schema) {
  if (schema == "cineflow.rf/1" || (schema.empty() && store::linkExists(root, "/rf"))) {
    return "is an ultrasound RF recording (cineflow.rf/1), not an OCT recording: it holds "
           "channel data, not spectra";
  }
  if (schema == "cineflow.volume/1") {
    return "is a saved volume (cineflow.volume/1), not an OCT recording: open it with File > "
           "Open saved volume";
  }
  if (schema == "cineflow.bmode/1") {
    return "is a B-mode output (cineflow.bmode/1), not an OCT recording: it holds images, not "
           "spectra";
  }
  return {};
}

// A wavelength or wavenumber table: `samples` finite values, strictly monotonic.
void checkTable(const std::filesystem::path& path, const char* name,
                const std::vector<double>& table, std::size_t samples) {
  if (table.size() != samples) {
    fail(path, std::string(name) + ": holds " + std::to_string(table.size()) +
                   " values, but /spectra has " + std::to_string(samples) +
                   " samples per A-scan (expected one value per sample)");
  }
  const bool rising = table.back() > table.front();
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (!std::isfinite(table[i]) || !(table[i] > 0)) {
      fail(path, std::string(name) + ": expected positive finite values, found " +
                     numberText(table[i]) + " at sample " + std::to_string(i));
    }
    if (i > 0 && (table[i] == table[i - 1] || (table[i] > table[i - 1]) != rising)) {
      fail(path, std::string(name) + ": expected strictly monotonic values, sample " +
                     std::to_string(i) + " (" + numberText(table[i]) + ") breaks the order");
    }
  }
}

}  // namespace

struct OctFileSource::Handles {
  store::H5File file;
  store::H5Dataset spectra;
  store::H5Dataset checksums;       // a raw recording's per-frame checksums; empty otherwise
  store::H5Dataset chunkChecksums;  // and its stored chunks' (compressed recordings)
  store::FrameReader reader;        // after spectra: it reads spectra
};

OctFileSource::OctFileSource(const std::filesystem::path& path, double frameRateHz)
    : OctFileSource(acquire::RecordingInput{path, {}}, frameRateHz) {}

OctFileSource::OctFileSource(const acquire::RecordingInput& input, double frameRateHz)
    : path_(input.path), frameRateHz_(frameRateHz), handles_(std::make_unique<Handles>()) {
  const std::filesystem::path& path = path_;  // names the recording in messages
  if (!std::isfinite(frameRateHz) || frameRateHz < 0) {
    throw std::invalid_argument("OctFileSource: frame rate must be >= 0 and finite");
  }
  ErrorScope scope;
  // Contextless Hdf5Errors from the store's helpers get the file name here.
  try {
    handles_->file = store::openForReplay(input, "an OCT recording",
                                          "an OCT recording is " + std::string(kOctSchema) +
                                              " HDF5; raw spectra need cineflow convert");
    const hid_t root = handles_->file.get();

    const std::string schema = store::attributeExists(root, "schema")
                                   ? store::readStringAttribute(root, "schema")
                                   : std::string();
    if (schema != kOctSchema) {
      if (const std::string other = whatElse(root, schema); !other.empty()) {
        fail(path, other);
      }
      if (schema.empty()) {
        fail(path, std::string("attribute schema: missing on / (expected \"") + kOctSchema + "\")");
      }
      fail(path, std::string("attribute schema: expected \"") + kOctSchema + "\", found \"" +
                     schema + "\"");
    }

    if (!store::linkExists(root, kSpectra)) {
      fail(path, "/spectra: missing (expected the raw spectra, uint16 [frames][ascans][samples])");
    }
    handles_->spectra = store::H5Dataset(H5Dopen2(root, kSpectra, H5P_DEFAULT));
    if (!handles_->spectra) {
      fail(path, "/spectra: expected a dataset, found another kind of object");
    }
    const hid_t spectra = handles_->spectra.get();
    store::H5Datatype type(checkId(H5Dget_type(spectra), "/spectra: get type"));
    if (!isUint16(type.get())) {
      fail(path, "/spectra: unsupported sample type " + store::describeType(type.get()) +
                     " (expected uint16 counts)");
    }
    const std::vector<hsize_t> shape = store::datasetShape(spectra);
    if (shape.size() != 3) {
      fail(path, "/spectra: expected rank 3 [frames][ascans][samples], found shape " +
                     store::shapeText(shape));
    }
    if (shape[0] == 0) {
      fail(path, "/spectra: holds zero frames (shape " + store::shapeText(shape) + ")");
    }
    constexpr hsize_t kMaxSamples = 65536;
    constexpr hsize_t kMaxAscans = 1u << 20;
    if (shape[1] == 0 || shape[1] > kMaxAscans || shape[2] < 16 || shape[2] > kMaxSamples) {
      fail(path, "/spectra: expected 1 to " + std::to_string(kMaxAscans) + " A-scans of 16 to " +
                     std::to_string(kMaxSamples) + " samples, found shape " +
                     store::shapeText(shape));
    }
    // Bounds before allocation: the frame buffers are sized from the shape.
    acquire::checkFrameBytes(acquire::checkedProduct({shape[1], shape[2], sizeof(std::uint16_t)}),
                             path.string(), "/spectra shape " + store::shapeText(shape));
    frames_ = store::recordedFrames(root, shape[0], interrupted_);
    if (frames_ == 0) {
      fail(path, "the recording was cut off before its first frame was written");
    }
    const store::RecordingAttributes attributes(path, {root},
                                                std::string(kOctSchema) + " requires it on /");
    OctAcquisition& acq = acquisition_;
    acq.ascans = static_cast<int>(shape[1]);
    acq.samples = static_cast<int>(shape[2]);

    const double bitDepth = attributes.number("bit_depth");
    if (bitDepth != 12 && bitDepth != 16) {
      fail(path, "attribute bit_depth: expected 12 or 16, found " + numberText(bitDepth));
    }
    acq.bitDepth = static_cast<int>(bitDepth);
    acq.centreWavelengthM = attributes.positive("centre_wavelength_m");
    acq.bandwidthM = attributes.nonNegative("bandwidth_m", attributes.numberOr("bandwidth_m", 0.0));
    // A raw recording (store/raw_recorder.hpp) stopped or cut off mid-volume keeps the volume
    // size it was acquired with; its B-scans replay without forming a volume.
    const bool rawRecording = store::attributeExists(root, "recording_complete");
    const int maxVolume = static_cast<int>(
        std::min<std::uint64_t>(rawRecording ? std::numeric_limits<int>::max() : frames_,
                                static_cast<std::uint64_t>(std::numeric_limits<int>::max())));
    if (const double perVolume = attributes.number("bscans_per_volume");
        perVolume > maxVolume && perVolume == std::floor(perVolume)) {
      fail(path, "attribute bscans_per_volume: " + numberText(perVolume) +
                     " B-scans per volume, but /spectra holds only " +
                     acquire::framesText(frames_) + " (expected at most " +
                     std::to_string(maxVolume) + ", or 0: B-scans only)");
    }
    acq.bscansPerVolume = attributes.whole("bscans_per_volume", 0, maxVolume);
    acq.bidirectional = attributes.whole("bidirectional", 0, 1) == 1;
    if (const double flyback = attributes.number("flyback_ascans");
        flyback >= acq.ascans && flyback == std::floor(flyback)) {
      fail(path, "attribute flyback_ascans: " + numberText(flyback) +
                     " flyback A-scans, but a B-scan has " + std::to_string(acq.ascans) +
                     " (expected a whole number in [0, " + std::to_string(acq.ascans - 1) + "])");
    }
    acq.flybackAscans = attributes.whole("flyback_ascans", 0, acq.ascans - 1);
    acq.lateralStepM = attributes.positive("lateral_step_m");
    acq.elevationStepM =
        attributes.nonNegative("elevation_step_m", attributes.number("elevation_step_m"));
    acq.lineRateHz =
        attributes.nonNegative("line_rate_hz", attributes.numberOr("line_rate_hz", 0.0));

    const bool hasWavelengths = store::linkExists(root, "/wavelength_m");
    const bool hasK = store::linkExists(root, "/k_rad_per_m");
    if (hasWavelengths && hasK) {
      fail(path, "/wavelength_m and /k_rad_per_m: expected one of them, found both");
    }
    if (hasWavelengths) {
      acq.wavelengthM = store::readDoubleDataset(root, "/wavelength_m");
      checkTable(path, "/wavelength_m", acq.wavelengthM, shape[2]);
    } else if (hasK) {
      const std::vector<double> k = store::readDoubleDataset(root, "/k_rad_per_m");
      checkTable(path, "/k_rad_per_m", k, shape[2]);
      acq.wavelengthM.resize(k.size());
      for (std::size_t i = 0; i < k.size(); ++i) {
        acq.wavelengthM[i] = 2.0 * std::numbers::pi / k[i];
      }
      wavelengthsFromK_ = true;
    } else {
      fail(path,
           "/wavelength_m: missing (expected the spectrometer's wavelength per sample in metres, "
           "or /k_rad_per_m)");
    }

    const bool hasA2 = store::attributeExists(root, "dispersion_a2_rad");
    const bool hasA3 = store::attributeExists(root, "dispersion_a3_rad");
    if (hasA2 || hasA3) {
      dispersion_ = OctDispersion{attributes.numberOr("dispersion_a2_rad", 0.0),
                                  attributes.numberOr("dispersion_a3_rad", 0.0)};
      if (store::attributeExists(root, "dispersion_centre_wavelength_m")) {
        dispersion_->centreWavelengthM = attributes.positive("dispersion_centre_wavelength_m");
      }
    }
    try {
      acq.validate();
    } catch (const std::invalid_argument& e) {
      fail(path, std::string("inconsistent acquisition: ") + e.what());
    }
    if (dispersion_ && !store::attributeExists(root, "dispersion_centre_wavelength_m")) {
      // Written when a2 / a3 were stated about the middle output sample of the k grid
      // (oct_recording.hpp): the same phase about the centre wavelength, less the group delay
      // that used to move every depth.
      const double centre =
          centreSample(acq, positionsFromWavelengths(acq.wavelengthM), acq.centreWavelengthM);
      dispersion_->a2Rad = restatedA2(dispersion_->a2Rad, dispersion_->a3Rad, 0.5 * acq.samples,
                                      centre, acq.samples);
    }
    handles_->checksums = store::openFrameChecksums(root);
    handles_->chunkChecksums = store::openChecksums(root, store::kChunkChecksums);
    try {
      handles_->reader.open(
          spectra,
          {static_cast<hsize_t>(acquisition_.ascans), static_cast<hsize_t>(acquisition_.samples)},
          H5T_NATIVE_UINT16, handles_->checksums.get(), handles_->chunkChecksums.get());
    } catch (const std::invalid_argument& e) {
      fail(path, std::string("/spectra: ") + e.what());
    }
  } catch (const Hdf5Error& e) {
    fail(path, e.what());
  }
}

OctFileSource::~OctFileSource() {
  ErrorScope scope;  // a failed close must not print from a destructor
  handles_.reset();
}

void OctFileSource::readFrame(std::uint64_t index, std::span<std::byte> dst,
                              acquire::SliceInfo& slice) {
  store::readRecordedFrame(handles_->reader, path_, "/spectra", index, frames_, dst, frameBytes());
  describeSlice(index, slice);
}

acquire::StoredFormat OctFileSource::storedFormat() const {
  return handles_->reader.storedFormat();
}

std::size_t OctFileSource::readStoredFrame(std::uint64_t index, std::span<std::byte> dst,
                                           acquire::SliceInfo& slice) {
  const std::size_t bytes =
      store::readRecordedChunk(handles_->reader, path_, "/spectra", index, frames_, dst);
  describeSlice(index, slice);
  return bytes;
}

void OctFileSource::describeSlice(std::uint64_t index, acquire::SliceInfo& slice) const {
  const int perVolume = acquisition_.bscansPerVolume;
  if (perVolume > 0) {
    slice.sliceIndex = static_cast<int>(index % static_cast<std::uint64_t>(perVolume));
    slice.elevationM = (slice.sliceIndex - 0.5 * (perVolume - 1)) * acquisition_.elevationStepM;
  } else {
    slice.sliceIndex = 0;
    slice.elevationM = 0.0;
  }
}

std::string OctFileSource::describe() const {
  return path_.filename().string() + " (" + acquire::framesText(frames_) + ", " +
         std::to_string(acquisition_.ascans) + " A-scans x " +
         std::to_string(acquisition_.samples) + " samples" +
         (interrupted_ ? ", an interrupted recording)" : ")");
}

}  // namespace cineflow::oct

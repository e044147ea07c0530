#include "ultrasound/rf_file_source.hpp"

#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <system_error>
#include <vector>

#include "acquire/input_bounds.hpp"
#include "store/hdf5_handle.hpp"
#include "store/recording_attributes.hpp"
#include "store/replay_file.hpp"
#include "ultrasound/echo_band.hpp"

namespace cineflow::ultrasound {

using store::checkId;
using store::checkStatus;
using store::ErrorScope;
using store::Hdf5Error;

namespace {

constexpr const char* kSchema = "cineflow.rf/1";

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& problem) {
  throw acquire::SourceError(path.string() + ": " + problem);
}

bool isInt16(hid_t type) {
  return H5Tget_class(type) == H5T_INTEGER && H5Tget_size(type) == 2 &&
         H5Tget_sign(type) == H5T_SGN_2;
}

bool isFloat32(hid_t type) {
  return H5Tget_class(type) == H5T_FLOAT && H5Tget_size(type) == 4;
}

}  // namespace

struct RfFileSource::Handles {
  store::H5File file;
  store::H5Dataset rf;
  store::H5Dataset checksums;       // a raw recording's per-frame checksums; empty otherwise
  store::H5Dataset chunkChecksums;  // and its stored chunks' (compressed recordings)
  store::FrameReader reader;        // after rf: it reads rf
};

RfFileSource::RfFileSource(const std::filesystem::path& path, double frameRateHz)
    : RfFileSource(acquire::RecordingInput{path, {}}, frameRateHz) {}

RfFileSource::RfFileSource(const acquire::RecordingInput& input, double frameRateHz)
    : path_(input.path), frameRateHz_(frameRateHz), handles_(std::make_unique<Handles>()) {
  const std::filesystem::path& path = path_;  // names the recording in messages
  if (!std::isfinite(frameRateHz) || frameRateHz < 0) {
    throw std::invalid_argument("RfFileSource: frame rate must be >= 0 and finite");
  }
  store::ErrorScope scope;
  // Contextless Hdf5Errors from the helpers below get the file name here.
  try {
    handles_->file = store::openForReplay(input, "an RF recording");
    const hid_t root = handles_->file.get();

    if (!store::linkExists(root, "/rf")) {
      // Cineflow's own outputs are HDF5 too: say what the file is and where it opens.
      const std::string other = store::attributeExists(root, "schema")
                                    ? store::readStringAttribute(root, "schema")
                                    : std::string();
      if (other == "cineflow.volume/1") {
        fail(path,
             "is a saved volume (cineflow.volume/1), not an RF recording: open it with "
             "File > Open saved volume");
      }
      if (other == "cineflow.bmode/1") {
        fail(path,
             "is a B-mode output (cineflow.bmode/1), not an RF recording: it holds images, "
             "not channel data");
      }
      // Neither an RF recording nor one of Cineflow's outputs: say what Cineflow reads.
      fail(path,
           (other.empty() ? std::string("has no schema attribute saying what it holds")
                          : "has the schema \"" + other + "\", which Cineflow does not read") +
               " and no /rf dataset; Cineflow reads " + kSchema +
               " (RF recordings, /rf [frames][transmits][elements][samples]), " +
               "cineflow.oct/1 (OCT recordings, /spectra) and MATLAB .mat files");
    }
    handles_->rf = store::H5Dataset(H5Dopen2(root, "/rf", H5P_DEFAULT));
    if (!handles_->rf) {
      fail(path, "/rf: expected a dataset, found another kind of object");
    }
    const hid_t rf = handles_->rf.get();
    // Attributes normally sit on /rf (as in the shipped recordings); the root group is accepted
    // too.
    const store::RecordingAttributes attributes(path, {rf, root}, "looked on /rf and on /");

    const hid_t schemaHolder = attributes.holder("schema");
    if (schemaHolder < 0) {
      fail(path, std::string("attribute schema: missing (expected \"") + kSchema + "\")");
    }
    const std::string schema = store::readStringAttribute(schemaHolder, "schema");
    if (schema != kSchema) {
      fail(path,
           "attribute schema: expected \"" + std::string(kSchema) + "\", found \"" + schema + "\"");
    }

    store::H5Datatype type(checkId(H5Dget_type(rf), "/rf: get type"));
    if (isInt16(type.get())) {
      sampleType_ = acquire::SampleType::Int16;
    } else if (isFloat32(type.get())) {
      sampleType_ = acquire::SampleType::Float32;
    } else {
      fail(path, "/rf: unsupported sample type " + store::describeType(type.get()) +
                     " (expected int16 or float32)");
    }
    const std::vector<hsize_t> shape = store::datasetShape(rf);
    if (shape.size() != 4) {
      fail(path, "/rf: expected rank 4 [frames][transmits][elements][samples], found shape " +
                     store::shapeText(shape));
    }
    if (shape[0] == 0) {
      fail(path, "/rf: holds zero frames (shape " + store::shapeText(shape) + ")");
    }
    if (shape[1] == 0 || shape[2] == 0 || shape[3] < 2) {
      fail(path, "/rf: expected at least 1 transmit, 1 element and 2 samples, found shape " +
                     store::shapeText(shape));
    }
    if (shape[3] > static_cast<hsize_t>(std::numeric_limits<int>::max())) {
      fail(path, "/rf: too many samples per line (" + std::to_string(shape[3]) + ")");
    }
    // Bounds before allocation: the frame buffers are sized from the shape.
    acquire::checkFrameBytes(
        acquire::checkedProduct({shape[1], shape[2], shape[3], sampleBytes(sampleType_)}),
        path.string(), "/rf shape " + store::shapeText(shape));
    frames_ = store::recordedFrames(root, shape[0], interrupted_);
    if (frames_ == 0) {
      fail(path, "the recording was cut off before its first frame was written");
    }

    params_.samplingFrequencyHz = attributes.positive("sampling_frequency_hz");
    params_.centerFrequencyHz = attributes.positive("center_frequency_hz");
    params_.soundSpeedMPerS = attributes.positive("sound_speed_m_s");
    params_.t0S = attributes.number("t0_s");
    if (const auto percent = attributes.optionalPositive("fractional_bandwidth_percent")) {
      params_.fractionalBandwidth = *percent / 100;
    }
    if (const auto prf = attributes.optionalPositive("pulse_repetition_frequency_hz")) {
      params_.pulseRepetitionFrequencyHz = *prf;
    }
    if (const auto k = attributes.optionalWhole("frames_per_volume", 0, 1'000'000)) {
      params_.framesPerVolume = *k;
    }
    params_.samples = static_cast<int>(shape[3]);

    params_.anglesRad = store::readDoubleDataset(root, "/angles_rad");
    if (params_.anglesRad.size() != shape[1]) {
      fail(path, "/angles_rad: holds " + std::to_string(params_.anglesRad.size()) +
                     " angles, but /rf has " + std::to_string(shape[1]) + " transmits");
    }
    for (double a : params_.anglesRad) {
      if (!std::isfinite(a) || std::abs(a) >= std::numbers::pi / 2) {
        fail(path, "/angles_rad: expected angles in radians within (-pi/2, pi/2), found " +
                       acquire::numberText(a));
      }
    }
    params_.elementXM = store::readDoubleDataset(root, "/element_x_m");
    if (params_.elementXM.size() != shape[2]) {
      fail(path, "/element_x_m: holds " + std::to_string(params_.elementXM.size()) +
                     " positions, but /rf has " + std::to_string(shape[2]) + " elements");
    }
    for (std::size_t i = 1; i < params_.elementXM.size(); ++i) {
      if (!(params_.elementXM[i] > params_.elementXM[i - 1])) {
        fail(path, "/element_x_m: expected strictly increasing positions (metres), element " +
                       std::to_string(i) + " is not");
      }
    }
    if (store::linkExists(root, "/elevation_m")) {
      elevations_ = store::readDoubleDataset(root, "/elevation_m");
      // A recording cut off mid-frame may hold an elevation for a frame it does not count.
      if (elevations_.size() != shape[0] && !(interrupted_ && elevations_.size() >= frames_)) {
        fail(path, "/elevation_m: holds " + std::to_string(elevations_.size()) +
                       " elevations, but /rf has " + std::to_string(shape[0]) + " frames");
      }
    }
    try {
      params_.validate();
    } catch (const std::invalid_argument& e) {
      fail(path, std::string("inconsistent acquisition parameters: ") + e.what());
    }
    handles_->checksums = store::openFrameChecksums(root);
    handles_->chunkChecksums = store::openChecksums(root, store::kChunkChecksums);
    try {
      handles_->reader.open(
          rf,
          {static_cast<hsize_t>(params_.transmits()), static_cast<hsize_t>(params_.elements()),
           static_cast<hsize_t>(params_.samples)},
          sampleType_ == acquire::SampleType::Int16 ? H5T_NATIVE_INT16 : H5T_NATIVE_FLOAT,
          handles_->checksums.get(), handles_->chunkChecksums.get());
    } catch (const std::invalid_argument& e) {
      fail(path, std::string("/rf: ") + e.what());
    }
  } catch (const store::Hdf5Error& e) {
    fail(path, e.what());
  }
  if (params_.fractionalBandwidth == 0) {
    // The recording does not state its bandwidth: measure it from the first frame's echoes.
    std::vector<std::byte> first(frameBytes());
    acquire::SliceInfo slice;
    readFrame(0, first, slice);
    ultrasound::measureBandwidthIfUnknown(params_, first, sampleType_);
  }
}

RfFileSource::~RfFileSource() {
  store::ErrorScope scope;  // a failed close must not print from a destructor
  handles_.reset();
}

void RfFileSource::readFrame(std::uint64_t index, std::span<std::byte> dst,
                             acquire::SliceInfo& slice) {
  store::readRecordedFrame(handles_->reader, path_, "/rf", index, frames_, dst, frameBytes());
  describeSlice(index, slice);
}

acquire::StoredFormat RfFileSource::storedFormat() const {
  return handles_->reader.storedFormat();
}

std::size_t RfFileSource::readStoredFrame(std::uint64_t index, std::span<std::byte> dst,
                                          acquire::SliceInfo& slice) {
  const std::size_t bytes =
      store::readRecordedChunk(handles_->reader, path_, "/rf", index, frames_, dst);
  describeSlice(index, slice);
  return bytes;
}

void RfFileSource::describeSlice(std::uint64_t index, acquire::SliceInfo& slice) const {
  slice.elevationM = elevations_.empty() ? 0.0 : elevations_[index];
  slice.sliceIndex =
      params_.framesPerVolume > 0
          ? static_cast<int>(index % static_cast<std::uint64_t>(params_.framesPerVolume))
          : 0;
}

std::string RfFileSource::describe() const {
  return path_.filename().string() + " (" + acquire::framesText(frames_) + ", " +
         std::to_string(params_.transmits()) + " x " + std::to_string(params_.elements()) + " x " +
         std::to_string(params_.samples) + " " + toString(sampleType_) +
         (interrupted_ ? ", an interrupted recording)" : ")");
}

}  // namespace cineflow::ultrasound

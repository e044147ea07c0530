#include "received/received_file_source.hpp"

#include <cmath>
#include <stdexcept>

#include "acquire/input_bounds.hpp"
#include "store/hdf5_handle.hpp"
#include "store/recording_attributes.hpp"
#include "store/replay_file.hpp"

namespace cineflow::received {

using acquire::SourceError;

namespace {

constexpr const char* kImages = "/images";

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& problem) {
  throw SourceError(path.string() + ": " + problem);
}

// The HDF5 type of each pixel type, as stored and as read.
hid_t nativeType(PixelType pixel) {
  switch (pixel) {
    case PixelType::UInt8:
      return H5T_NATIVE_UINT8;
    case PixelType::Int8:
      return H5T_NATIVE_INT8;
    case PixelType::UInt16:
      return H5T_NATIVE_UINT16;
    case PixelType::Int16:
      return H5T_NATIVE_INT16;
    case PixelType::Float32:
      break;
  }
  return H5T_NATIVE_FLOAT;
}

}  // namespace

struct ReceivedFileSource::Handles {
  store::H5File file;
  store::H5Dataset images;
  store::H5Dataset checksums;
  store::H5Dataset chunkChecksums;
  store::FrameReader reader;  // after images: it reads them
};

ReceivedFileSource::ReceivedFileSource(const std::filesystem::path& path, double frameRateHz)
    : ReceivedFileSource(acquire::RecordingInput{path, {}}, frameRateHz) {}

ReceivedFileSource::ReceivedFileSource(const acquire::RecordingInput& input, double frameRateHz)
    : path_(input.path), frameRateHz_(frameRateHz), handles_(std::make_unique<Handles>()) {
  const std::filesystem::path& path = path_;  // names the recording in messages
  if (!std::isfinite(frameRateHz) || frameRateHz < 0) {
    throw std::invalid_argument("ReceivedFileSource: frame rate must be >= 0 and finite");
  }
  store::ErrorScope scope;
  try {
    handles_->file = store::openForReplay(input, "a recording of received images");
    const hid_t root = handles_->file.get();
    const std::string schema = store::attributeExists(root, "schema")
                                   ? store::readStringAttribute(root, "schema")
                                   : std::string();
    if (schema != kReceivedSchema) {
      fail(path, std::string("attribute schema: expected \"") + kReceivedSchema + "\", found \"" +
                     schema + "\"");
    }
    const store::RecordingAttributes attributes(path, {root},
                                                std::string(kReceivedSchema) + " requires it on /");
    try {
      format_.pixel = parsePixelType(store::attributeExists(root, "pixel_type")
                                         ? store::readStringAttribute(root, "pixel_type")
                                         : std::string("missing"));
    } catch (const std::invalid_argument& e) {
      fail(path, std::string("attribute ") + e.what());
    }
    if (!store::linkExists(root, kImages)) {
      fail(path, "/images: missing (expected the images, [frames][rows][cols])");
    }
    handles_->images = store::H5Dataset(H5Dopen2(root, kImages, H5P_DEFAULT));
    if (!handles_->images) {
      fail(path, "/images: expected a dataset, found another kind of object");
    }
    const hid_t images = handles_->images.get();
    store::H5Datatype type(store::checkId(H5Dget_type(images), "/images: get type"));
    if (H5Tequal(type.get(), nativeType(format_.pixel)) <= 0) {
      fail(path, "/images: holds " + store::describeType(type.get()) +
                     ", but attribute pixel_type says " + toString(format_.pixel));
    }
    const std::vector<hsize_t> shape = store::datasetShape(images);
    if (shape.size() != 3 || shape[0] == 0) {
      fail(path, "/images: expected rank 3 [frames][rows][cols] with frames, found shape " +
                     store::shapeText(shape));
    }
    format_.rows = attributes.whole("rows", 1, 16384);
    format_.cols = attributes.whole("cols", 1, 16384);
    if (shape[1] != static_cast<hsize_t>(format_.rows) ||
        shape[2] != static_cast<hsize_t>(format_.cols)) {
      fail(path, "/images: shape " + store::shapeText(shape) + " does not hold images of " +
                     std::to_string(format_.rows) + " rows and " + std::to_string(format_.cols) +
                     " columns (attributes rows, cols)");
    }
    acquire::checkFrameBytes(format_.frameBytes(), path.string(),
                             "/images shape " + store::shapeText(shape));
    format_.dxM = attributes.positive("dx_m");
    format_.dzM = attributes.positive("dz_m");
    format_.x0M = attributes.number("x0_m");
    format_.z0M = attributes.number("z0_m");
    if (store::attributeExists(root, "device")) {
      format_.device = store::readStringAttribute(root, "device");
    }
    levels_ = ReceivedLevels::defaultsFor(format_.pixel);
    if (store::attributeExists(root, "levels")) {
      levels_.asDb = store::readStringAttribute(root, "levels") == "db";
      levels_.black = attributes.numberOr("black_level", levels_.black);
      levels_.white = attributes.numberOr("white_level", levels_.white);
    }
    try {
      format_.validate();
      levels_.validate();
    } catch (const std::invalid_argument& e) {
      fail(path, e.what());
    }
    frames_ = store::recordedFrames(root, shape[0], interrupted_);
    if (frames_ == 0) {
      fail(path, "the recording was cut off before its first frame was written");
    }
    handles_->checksums = store::openFrameChecksums(root);
    handles_->chunkChecksums = store::openChecksums(root, store::kChunkChecksums);
    try {
      handles_->reader.open(
          images, {static_cast<hsize_t>(format_.rows), static_cast<hsize_t>(format_.cols)},
          nativeType(format_.pixel), handles_->checksums.get(), handles_->chunkChecksums.get());
    } catch (const std::invalid_argument& e) {
      fail(path, std::string("/images: ") + e.what());
    }
  } catch (const store::Hdf5Error& e) {
    fail(path, e.what());
  }
}

ReceivedFileSource::~ReceivedFileSource() {
  store::ErrorScope scope;  // a failed close must not print from a destructor
  handles_.reset();
}

void ReceivedFileSource::readFrame(std::uint64_t index, std::span<std::byte> dst,
                                   acquire::SliceInfo& slice) {
  store::readRecordedFrame(handles_->reader, path_, kImages, index, frames_, dst, frameBytes());
  slice = {};
}

acquire::StoredFormat ReceivedFileSource::storedFormat() const {
  return handles_->reader.storedFormat();
}

std::size_t ReceivedFileSource::readStoredFrame(std::uint64_t index, std::span<std::byte> dst,
                                                acquire::SliceInfo& slice) {
  slice = {};
  return store::readRecordedChunk(handles_->reader, path_, kImages, index, frames_, dst);
}

std::string ReceivedFileSource::describe() const {
  return path_.filename().string() + " (" + acquire::framesText(frames_) + " of " +
         format_.describe() + (interrupted_ ? ", an interrupted recording)" : ")");
}

}  // namespace cineflow::received

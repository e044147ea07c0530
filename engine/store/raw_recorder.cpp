#include "store/raw_recorder.hpp"

#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "base/enum_names.hpp"
#include "base/thread_name.hpp"
#include "process/chunk_codec.hpp"
#include "store/acquisition_layout.hpp"
#include "store/hdf5_handle.hpp"
#include "store/replay_file.hpp"
#include "store/staged_h5_file.hpp"
#include "store/store_error.hpp"

namespace cineflow::store {
namespace {

constexpr hsize_t kIndexChunk = 1024;  // /sequence and /timestamp_ns values per chunk

hid_t fileType(SampleKind kind) {
  switch (kind) {
    case SampleKind::Float32:
      return H5T_IEEE_F32LE;
    case SampleKind::UInt16:
      return H5T_STD_U16LE;
    case SampleKind::UInt8:
      return H5T_STD_U8LE;
    case SampleKind::Int8:
      return H5T_STD_I8LE;
    case SampleKind::Int16:
      break;
  }
  return H5T_STD_I16LE;
}

// An extendible 1-D dataset of per-frame values.
H5Dataset createIndex(hid_t root, const char* name, hid_t type) {
  const hsize_t dims[1] = {0}, maxDims[1] = {H5S_UNLIMITED}, chunk[1] = {kIndexChunk};
  H5Dataspace space(checkId(H5Screate_simple(1, dims, maxDims), name));
  H5PropertyList dcpl(checkId(H5Pcreate(H5P_DATASET_CREATE), name));
  checkStatus(H5Pset_chunk(dcpl.get(), 1, chunk), name);
  return H5Dataset(checkId(
      H5Dcreate2(root, name, type, space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT), name));
}

void appendValue(hid_t dataset, hsize_t index, hid_t memType, const void* value, const char* name) {
  const hsize_t size[1] = {index + 1}, start[1] = {index}, count[1] = {1};
  checkStatus(H5Dset_extent(dataset, size), name);
  H5Dataspace fileSpace(checkId(H5Dget_space(dataset), name));
  checkStatus(H5Sselect_hyperslab(fileSpace.get(), H5S_SELECT_SET, start, nullptr, count, nullptr),
              name);
  H5Dataspace memSpace(checkId(H5Screate_simple(1, count, nullptr), name));
  checkStatus(H5Dwrite(dataset, memType, memSpace.get(), fileSpace.get(), H5P_DEFAULT, value),
              name);
}

// HDF5's account of a failed write ends in the system's reason ("error message = 'No space left
// on device'"): the operator reads that first, the whole account after it.
std::string withSystemReason(const std::string& hdf5) {
  const std::string marker = "error message = '";
  const std::size_t at = hdf5.find(marker);
  if (at == std::string::npos) {
    return hdf5;
  }
  const std::size_t begin = at + marker.size();
  const std::size_t end = hdf5.find('\'', begin);
  return hdf5.substr(begin, end == std::string::npos ? std::string::npos : end - begin) + " [" +
         hdf5 + "]";
}

}  // namespace

namespace {

acquire::ChunkCodec codecOf(RecordCompression compression) {
  switch (compression) {
    case RecordCompression::BitshuffleLz4:
      return acquire::ChunkCodec::BitshuffleLz4;
    case RecordCompression::Lz4:
      return acquire::ChunkCodec::Lz4;
    case RecordCompression::None:
      break;
  }
  return acquire::ChunkCodec::None;
}

}  // namespace

const char* toString(RecordCompression compression) noexcept {
  return acquire::toString(codecOf(compression));
}

RecordCompression parseRecordCompression(const std::string& text) {
  // The names toString() gives, which are the codecs' (test_enum_names reads them back).
  static constexpr base::Named<RecordCompression> kNames[] = {
      {RecordCompression::BitshuffleLz4, "bitshuffle-lz4"},
      {RecordCompression::Lz4, "lz4"},
      {RecordCompression::None, "none"}};
  return base::parseIn(kNames, text, "recording compression");
}

std::size_t bytesOf(SampleKind kind) noexcept {
  switch (kind) {
    case SampleKind::Float32:
      return 4;
    case SampleKind::UInt8:
    case SampleKind::Int8:
      return 1;
    case SampleKind::UInt16:
    case SampleKind::Int16:
      break;
  }
  return 2;
}

struct RawRecorder::File {
  H5File file;
  H5Dataset frames, checksums, chunkChecksums, sequence, timestamps, elevations;
  std::vector<hsize_t> extent, offset;  // the frames dataset's, per frame: [frames][dims...]
};

RawRecorder::RawRecorder(const std::filesystem::path& path, RecordingLayout layout,
                         RecordCodec codec, RecordPolicy policy, int slots,
                         const AttributeMap& extra)
    : path_(path),
      layout_(std::move(layout)),
      compression_(codec.compression),
      blockBytes_(codec.blockBytes),
      policy_(policy),
      file_(std::make_unique<File>()) {
  const auto refuse = [&path](const std::string& why) {
    throw StoreError("cannot record " + path.string() + ": " + why);
  };
  if (const std::string problem = folderProblem(path); !problem.empty()) {
    refuse(problem);
  }
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) {
    refuse("the file exists (a recording never overwrites one: choose another name)");
  }
  if (slots < 1 || layout_.frameValues() == 0) {
    refuse("nothing to record (" + std::to_string(slots) + " slots, " +
           std::to_string(layout_.frameBytes()) + "-byte frames)");
  }
  if (const std::string problem = process::chunkBlockProblem(
          codecOf(compression_), bytesOf(layout_.sampleKind), blockBytes_);
      !problem.empty()) {
    refuse(std::string(toString(compression_)) + " " + problem);
  }
  const ErrorScope quiet;
  try {
    // Single-writer/multiple-reader needs the 1.10 file format; it keeps the file consistent on
    // disk at every step.
    H5PropertyList access(checkId(H5Pcreate(H5P_FILE_ACCESS), "file access properties"));
    checkStatus(H5Pset_libver_bounds(access.get(), H5F_LIBVER_V110, H5F_LIBVER_LATEST),
                "file format 1.10");
    file_->file = H5File(H5Fcreate(path.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, access.get()));
    if (!file_->file) {
      refuse("create failed (HDF5: " + errorStackText() + ")");
    }
    const hid_t root = file_->file.get();
    AttributeMap attributes = extra;
    attributes.emplace("recording_complete", std::int64_t{0});
    attributes.emplace("recording_compression", std::string(toString(compression_)));
    if (compression_ != RecordCompression::None) {
      attributes.emplace("recording_block_bytes",
                         static_cast<std::int64_t>(process::chunkBlockBytes(
                             codecOf(compression_), bytesOf(layout_.sampleKind), blockBytes_)));
    }
    writeMetadata(root, layout_.schema.c_str(), layout_.header, attributes);

    const int rank = static_cast<int>(layout_.frameDims.size()) + 1;
    std::vector<hsize_t> dims(static_cast<std::size_t>(rank), 0), maxDims(dims.size()),
        chunk(dims.size());
    maxDims[0] = H5S_UNLIMITED;
    chunk[0] = 1;
    for (std::size_t d = 0; d < layout_.frameDims.size(); ++d) {
      dims[d + 1] = maxDims[d + 1] = chunk[d + 1] = layout_.frameDims[d];
    }
    const std::string name = layout_.dataset;
    H5Dataspace space(checkId(H5Screate_simple(rank, dims.data(), maxDims.data()), name));
    H5PropertyList dcpl(checkId(H5Pcreate(H5P_DATASET_CREATE), name));
    checkStatus(H5Pset_chunk(dcpl.get(), rank, chunk.data()), name + ": chunks");
    if (compression_ == RecordCompression::BitshuffleLz4) {
      // With the bitshuffle plugin installed, HDF5 completes the client data itself (its
      // set_local step); without it the full set is stored so that readers with it decode.
      const auto elementBytes = static_cast<unsigned>(bytesOf(layout_.sampleKind));
      const bool plugin = H5Zfilter_avail(process::kBitshuffleFilterId) > 0;
      const auto blockElements = static_cast<unsigned>(blockBytes_ / elementBytes);
      const unsigned options[2] = {blockElements, process::kBitshuffleLz4};
      const unsigned full[5] = {0, 3, elementBytes, blockElements, process::kBitshuffleLz4};
      checkStatus(H5Pset_filter(dcpl.get(), process::kBitshuffleFilterId, H5Z_FLAG_OPTIONAL,
                                plugin ? 2 : 5, plugin ? options : full),
                  name + ": bitshuffle filter");
    } else if (compression_ == RecordCompression::Lz4) {
      const unsigned blockBytes[1] = {static_cast<unsigned>(
          process::chunkBlockBytes(acquire::ChunkCodec::Lz4, 1, blockBytes_))};
      checkStatus(
          H5Pset_filter(dcpl.get(), process::kLz4FilterId, H5Z_FLAG_OPTIONAL, 1, blockBytes),
          name + ": LZ4 filter");
    }
    file_->frames = H5Dataset(checkId(H5Dcreate2(root, name.c_str(), fileType(layout_.sampleKind),
                                                 space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
                                      name + ": create"));
    writeStringAttribute(file_->frames.get(), "dimensions", layout_.dimensions);
    file_->checksums = createIndex(root, kFrameChecksums, H5T_STD_U64LE);
    if (compression_ != RecordCompression::None) {
      file_->chunkChecksums = createIndex(root, kChunkChecksums, H5T_STD_U64LE);
    }
    file_->sequence = createIndex(root, "sequence", H5T_STD_U64LE);
    file_->timestamps = createIndex(root, "timestamp_ns", H5T_STD_I64LE);
    if (layout_.perFrameElevation) {
      file_->elevations = createIndex(root, "elevation_m", H5T_IEEE_F64LE);
      writeStringAttribute(file_->elevations.get(), "units", "m");
    }
    checkStatus(H5Fstart_swmr_write(root), "single-writer mode");
  } catch (const Hdf5Error& e) {
    file_.reset();
    std::filesystem::remove(path, ec);
    refuse(e.what());
  }
  file_->extent.assign(1, 0);
  file_->extent.insert(file_->extent.end(), layout_.frameDims.begin(), layout_.frameDims.end());
  file_->offset.assign(file_->extent.size(), 0);
  slots_.resize(static_cast<std::size_t>(slots));
  for (int i = 0; i < slots; ++i) {
    slots_[static_cast<std::size_t>(i)].bytes.resize(layout_.frameBytes());
    free_.push_back(i);
  }
  if (compression_ != RecordCompression::None) {
    scratch_.reserve(process::chunkBound(layout_.frameBytes(), codecOf(compression_),
                                         bytesOf(layout_.sampleKind), blockBytes_));
  }
  queued_.reserve(slots_.size());
  stats_.running = true;
  thread_ = std::thread([this] { run(); });
}

RawRecorder::~RawRecorder() {
  try {
    stop();
  } catch (...) {  // stop() reports through stats(); nothing may leave a destructor
  }
}

bool RawRecorder::submit(const acquire::FrameHeader& header, std::span<const std::byte> frame) {
  if (frame.size() != layout_.frameBytes()) {
    throw std::invalid_argument("raw recorder: a frame of " + std::to_string(frame.size()) +
                                " bytes, the recording's are " +
                                std::to_string(layout_.frameBytes()));
  }
  std::unique_lock lock(mutex_);
  if (policy_ == RecordPolicy::Block) {
    changed_.wait(lock, [this] { return !free_.empty() || stopping_ || failed_; });
  }
  if (free_.empty() || stopping_ || failed_) {
    ++stats_.dropped;
    return false;
  }
  const int index = free_.back();
  free_.pop_back();
  lock.unlock();
  Slot& slot = slots_[static_cast<std::size_t>(index)];
  slot.header = header;
  std::memcpy(slot.bytes.data(), frame.data(), frame.size());
  lock.lock();
  queued_.push_back(index);
  changed_.notify_all();
  return true;
}

void RawRecorder::run() {
  base::setCurrentThreadName("cf-record");
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return !queued_.empty() || stopping_; });
    if (queued_.empty()) {
      break;  // stopping, everything written (each frame is flushed as it is written)
    }
    const int index = queued_.front();
    queued_.erase(queued_.begin());
    const bool failed = failed_;
    lock.unlock();
    if (failed) {
      std::lock_guard counting(mutex_);
      ++stats_.dropped;  // queued before the error: not recorded, and counted
    } else {
      write(slots_[static_cast<std::size_t>(index)]);
    }
    lock.lock();
    free_.push_back(index);
    changed_.notify_all();
  }
}

void RawRecorder::write(const Slot& slot) {
  const ErrorScope quiet;
  try {
    std::span<const std::byte> chunk(slot.bytes);
    if (compression_ != RecordCompression::None) {
      const std::size_t size = process::encodeChunk(
          slot.bytes, codecOf(compression_), bytesOf(layout_.sampleKind), scratch_, blockBytes_);
      chunk = std::span<const std::byte>(scratch_.data(), size);
    }
    hsize_t index = 0;
    {
      std::lock_guard lock(mutex_);
      index = stats_.written;
    }
    std::vector<hsize_t>& extent = file_->extent;
    std::vector<hsize_t>& offset = file_->offset;
    extent[0] = index + 1;
    offset[0] = index;
    const hid_t frames = file_->frames.get();
    checkStatus(H5Dset_extent(frames, extent.data()), layout_.dataset + ": extend");
    checkStatus(H5Dwrite_chunk(frames, H5P_DEFAULT, 0, offset.data(), chunk.size(), chunk.data()),
                layout_.dataset + ": write frame " + std::to_string(index));
    const std::uint64_t checksum = XXH3_64bits(slot.bytes.data(), slot.bytes.size());
    appendValue(file_->checksums.get(), index, H5T_NATIVE_UINT64, &checksum, kFrameChecksums);
    if (file_->chunkChecksums) {
      const std::uint64_t stored = XXH3_64bits(chunk.data(), chunk.size());
      appendValue(file_->chunkChecksums.get(), index, H5T_NATIVE_UINT64, &stored, kChunkChecksums);
    }
    if (file_->elevations) {
      appendValue(file_->elevations.get(), index, H5T_NATIVE_DOUBLE, &slot.header.slice.elevationM,
                  "elevation_m");
    }
    // The sequence number after the frame and what describes it: a frame counts once its entry
    // exists (replay_file.hpp, recordedFrames()).
    appendValue(file_->sequence.get(), index, H5T_NATIVE_UINT64, &slot.header.sequence, "sequence");
    appendValue(file_->timestamps.get(), index, H5T_NATIVE_INT64, &slot.header.timestampNs,
                "timestamp_ns");
    {
      std::lock_guard lock(mutex_);
      ++stats_.written;
      stats_.rawBytes += slot.bytes.size();
      stats_.compressedBytes += chunk.size();
    }
    // Every frame reaches the disk's cache with the structures that find it: a crash, a kill
    // or a full disk later loses nothing recorded so far (a flush writes only HDF5's few changed
    // records; the frame itself is already written).
    flush();
  } catch (const std::exception& e) {
    fail(withSystemReason(e.what()));
    std::lock_guard lock(mutex_);
    ++stats_.dropped;  // this frame is not in the file
  }
}

void RawRecorder::flush() {
  const ErrorScope quiet;
  if (file_ && file_->file && H5Fflush(file_->file.get(), H5F_SCOPE_LOCAL) < 0) {
    fail("flush: " + errorStackText());
  }
}

void RawRecorder::fail(const std::string& why) {
  std::lock_guard lock(mutex_);
  if (!failed_) {
    failed_ = true;
    stats_.error = "recording " + path_.string() + " stopped after " +
                   std::to_string(stats_.written) + " frames: " + why;
  }
  changed_.notify_all();
}

RecorderStats RawRecorder::stop() {
  {
    std::lock_guard lock(mutex_);
    if (!thread_.joinable()) {
      return stats_;
    }
    stopping_ = true;
    changed_.notify_all();
  }
  thread_.join();
  const ErrorScope quiet;
  bool complete = false;
  {
    std::lock_guard lock(mutex_);
    complete = !failed_;
  }
  // After a failed write HDF5 has reserved space the disk never got; the file must reach that
  // far or HDF5 refuses to open it ("truncated file"). A hole (no disk blocks) makes it so.
  haddr_t reserved = 0;
  if (!complete && H5Fget_eoa(file_->file.get(), &reserved) < 0) {
    reserved = 0;
  }
  flush();
  file_->frames.reset();
  file_->checksums.reset();
  file_->chunkChecksums.reset();
  file_->sequence.reset();
  file_->timestamps.reset();
  file_->elevations.reset();
  if (!file_->file.close()) {
    fail("close: " + errorStackText());
    complete = false;
  }
  std::error_code ec;
  if (!complete && reserved > 0 && std::filesystem::file_size(path_, ec) < reserved && !ec) {
    std::filesystem::resize_file(path_, reserved, ec);
    if (ec) {
      std::lock_guard lock(mutex_);
      stats_.error += " (and the file could not be extended to the " + std::to_string(reserved) +
                      " bytes HDF5 reserved: " + ec.message() + "; it may not open)";
    }
  }
  if (complete) {
    // Attributes cannot change in single-writer mode: reopened to say the recording is whole.
    const H5File reopened(H5Fopen(path_.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
    try {
      checkId(reopened.get(), "reopen");
      H5Adelete(reopened.get(), "recording_complete");
      writeIntegerAttribute(reopened.get(), "recording_complete", 1);
    } catch (const std::exception& e) {
      fail(std::string("marking the recording complete: ") + e.what());
    }
  }
  std::lock_guard lock(mutex_);
  stats_.running = false;
  return stats_;
}

RecorderStats RawRecorder::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

}  // namespace cineflow::store

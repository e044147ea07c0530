#include "store/replay_file.hpp"

#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <system_error>
#include <vector>

#include "acquire/frame_source.hpp"
#include "process/chunk_codec.hpp"

namespace cineflow::store {
H5File openForReplay(const std::filesystem::path& path, const std::string& kind,
                     const std::string& notHdf5Hint) {
  const auto fail = [&path](const std::string& problem) {
    throw acquire::SourceError(path.string() + ": " + problem);
  };
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    fail("file not found");
  }
  if (std::filesystem::is_directory(path, ec)) {
    fail("is a directory, not " + kind);
  }
  // 0: no signature; < 0: a signature, but HDF5 cannot read on (the open below says why).
  if (H5Fis_hdf5(path.c_str()) == 0) {
    fail("not an HDF5 file (no HDF5 signature found" +
         (notHdf5Hint.empty() ? std::string() : "; " + notHdf5Hint) + ")");
  }
  std::string reason;
  H5File file = openForReading(path, reason);
  if (!file) {
    fail("cannot open as HDF5 (damaged or truncated?): " + reason);
  }
  return file;
}

H5File openForReplay(const acquire::RecordingInput& input, const std::string& kind,
                     const std::string& notHdf5Hint) {
  if (input.image.empty()) {
    return openForReplay(input.path, kind, notHdf5Hint);
  }
  const auto fail = [&input](const std::string& problem) {
    throw acquire::SourceError(input.path.string() + ": " + problem);
  };
  // HDF5's signature (0x89 'HDF' \r \n 0x1a \n) at offset 0, 512, 1024, 2048, ... (after a user
  // block), where HDF5 looks for it.
  constexpr unsigned char kSignature[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
  bool signed_ = false;
  for (std::size_t at = 0; !signed_ && at + sizeof kSignature <= input.image.size();
       at = at == 0 ? 512 : 2 * at) {
    signed_ = std::memcmp(input.image.data() + at, kSignature, sizeof kSignature) == 0;
  }
  if (!signed_) {
    fail("not an HDF5 file (no HDF5 signature found" +
         (notHdf5Hint.empty() ? std::string() : "; " + notHdf5Hint) + ")");
  }
  const H5PropertyList access(H5Pcreate(H5P_FILE_ACCESS));
  if (!access || H5Pset_fapl_core(access.get(), 1 << 16, false) < 0 ||
      H5Pset_file_image(access.get(), const_cast<std::byte*>(input.image.data()),
                        input.image.size()) < 0) {
    fail("cannot hold the file image: " + errorStackText());
  }
  H5File file(H5Fopen(input.path.c_str(), H5F_ACC_RDONLY, access.get()));
  if (!file) {
    fail("cannot open as HDF5 (damaged or truncated?): " + errorStackText());
  }
  return file;
}

std::string rootSchema(const std::filesystem::path& path) noexcept {
  try {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
      return {};
    }
    const ErrorScope quiet;
    if (H5Fis_hdf5(path.c_str()) <= 0) {
      return {};
    }
    std::string reason;
    const H5File file = openForReading(path, reason);
    if (!file || !attributeExists(file.get(), "schema")) {
      return {};
    }
    return readStringAttribute(file.get(), "schema");
  } catch (...) {  // not a string, unreadable, out of memory: the file says nothing usable
    return {};
  }
}

std::uint64_t recordedFrames(hid_t root, std::uint64_t datasetFrames, bool& interrupted) {
  interrupted = attributeExists(root, "recording_complete") &&
                readNumberAttribute(root, "recording_complete") == 0;
  if (!interrupted || !linkExists(root, "/sequence")) {
    return datasetFrames;
  }
  const H5Dataset sequence(checkId(H5Dopen2(root, "/sequence", H5P_DEFAULT), "/sequence"));
  const std::vector<hsize_t> shape = datasetShape(sequence.get());
  return shape.size() == 1 ? std::min<std::uint64_t>(datasetFrames, shape[0]) : datasetFrames;
}

H5Dataset openChecksums(hid_t root, const char* name) {
  if (!linkExists(root, name)) {
    return {};
  }
  return H5Dataset(checkId(H5Dopen2(root, name, H5P_DEFAULT), name));
}

namespace {

// Checksum `index` of `checksums` (one uint64 per frame) against `bytes`: "" or why not.
std::string checkSum(hid_t checksums, std::uint64_t index, std::span<const std::byte> bytes,
                     const char* what) {
  const H5Dataspace space(H5Dget_space(checksums));
  const hsize_t start[1] = {index}, count[1] = {1};
  std::uint64_t recorded = 0;
  const H5Dataspace one(H5Screate_simple(1, count, nullptr));
  if (!space || !one ||
      H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr) < 0 ||
      H5Dread(checksums, H5T_NATIVE_UINT64, one.get(), space.get(), H5P_DEFAULT, &recorded) < 0) {
    return std::string("its checksum cannot be read: ") + errorStackText();
  }
  if (XXH3_64bits(bytes.data(), bytes.size()) != recorded) {
    return std::string("the ") + what +
           " does not match its checksum: its bytes changed after they were recorded";
  }
  return {};
}

}  // namespace

void FrameReader::open(hid_t dataset, std::vector<hsize_t> frameDims, hid_t memType,
                       hid_t checksums, hid_t chunkChecksums) {
  dataset_ = dataset;
  checksums_ = checksums;
  chunkChecksums_ = chunkChecksums;
  frameDims_ = std::move(frameDims);
  memType_ = memType;
  elementBytes_ = H5Tget_size(memType);
  fileSpace_ = H5Dataspace(checkId(H5Dget_space(dataset), "get dataspace"));
  start_.assign(frameDims_.size() + 1, 0);
  count_.assign(1, 1);
  count_.insert(count_.end(), frameDims_.begin(), frameDims_.end());
  // The memory space has the selection's own shape: HDF5 then copies whole rows; against a flat
  // one it walks the selection element by element (49 ms instead of about 1 for a 2 MB frame).
  memSpace_ = H5Dataspace(checkId(
      H5Screate_simple(static_cast<int>(count_.size()), count_.data(), nullptr), "frame space"));
  const H5PropertyList dcpl(checkId(H5Dget_create_plist(dataset), "creation properties"));
  unsigned flags = 0;
  std::size_t values = 8;
  unsigned options[8] = {};
  codec_ = acquire::ChunkCodec::None;
  if (H5Pget_filter_by_id2(dcpl.get(), process::kBitshuffleFilterId, &flags, &values, options, 0,
                           nullptr, nullptr) >= 0) {
    codec_ = acquire::ChunkCodec::BitshuffleLz4;
    if (values < 5 || options[4] != process::kBitshuffleLz4) {
      // The filter's compression option: 0 none, 2 LZ4, 3 zstd (bitshuffle 0.5 and hdf5plugin).
      const unsigned compression = values < 5 ? 0 : options[4];
      const std::string named = compression == 0   ? "no compression after the bit shuffle"
                                : compression == 3 ? "zstd"
                                                   : "compression " + std::to_string(compression);
      throw std::invalid_argument(
          "bitshuffle chunks with " + named + " (filter 32008, compression option " +
          std::to_string(compression) +
          ") are not supported: Cineflow replays bitshuffle + LZ4 (option 2), plain LZ4 (filter "
          "32004) and uncompressed frames; rewrite the recording with one of those, e.g. "
          "h5repack -f /DATASET:NONE");
    }
  } else if (H5Pget_filter_by_id2(dcpl.get(), process::kLz4FilterId, &flags, &values, options, 0,
                                  nullptr, nullptr) >= 0) {
    codec_ = acquire::ChunkCodec::Lz4;
  }
  H5Eclear2(H5E_DEFAULT);  // "filter not in pipeline" is an answer, not an error
  if (!compressed()) {
    return;
  }
  if (H5Pget_nfilters(dcpl.get()) != 1) {
    throw std::invalid_argument("compressed chunks with more than one filter are not supported");
  }
  const H5Datatype type(checkId(H5Dget_type(dataset), "get type"));
  if (H5Tget_size(type.get()) != elementBytes_ ||
      H5Tget_order(type.get()) != H5Tget_order(memType)) {
    throw std::invalid_argument("compressed chunks of " + describeType(type.get()) +
                                " are not supported (little-endian samples of the frame's type)");
  }
  std::vector<hsize_t> chunk(frameDims_.size() + 1);
  if (H5Pget_chunk(dcpl.get(), static_cast<int>(chunk.size()), chunk.data()) !=
          static_cast<int>(chunk.size()) ||
      chunk[0] != 1 || !std::equal(frameDims_.begin(), frameDims_.end(), chunk.begin() + 1)) {
    throw std::invalid_argument("compressed chunks must each hold one whole frame (chunk shape " +
                                shapeText(chunk) + ")");
  }
  std::size_t frameBytes = elementBytes_;
  for (const hsize_t d : frameDims_) {
    frameBytes *= d;
  }
  chunk_.resize(process::chunkBound(frameBytes, codec_, elementBytes_));
  scratch_.block.resize(process::defaultBlockElements(elementBytes_) * elementBytes_);
}

std::string FrameReader::read(std::uint64_t index, std::span<std::byte> dst) {
  const std::string reason = readValues(index, dst);
  return reason.empty() && checksums_ >= 0 ? checkSum(checksums_, index, dst, "frame") : reason;
}

acquire::StoredFormat FrameReader::storedFormat() const {
  if (!compressed() || (checksums_ >= 0 && chunkChecksums_ < 0)) {
    return {};
  }
  return {codec_, elementBytes_, chunk_.size()};
}

std::string FrameReader::readChunk(std::uint64_t index, std::vector<hsize_t>& start,
                                   std::span<std::byte> into, std::size_t& bytes,
                                   std::uint32_t& filterMask) {
  bytes = 0;
  start[0] = index;
  hsize_t stored = 0;
  if (H5Dget_chunk_storage_size(dataset_, start.data(), &stored) < 0) {
    return errorStackText();
  }
  if (stored > into.size()) {
    bytes = stored;
    return {};
  }
  filterMask = 0;
  if (H5Dread_chunk(dataset_, H5P_DEFAULT, start.data(), &filterMask, into.data()) < 0) {
    return errorStackText();
  }
  bytes = stored;
  return {};
}

std::string FrameReader::readStored(std::uint64_t index, std::span<std::byte> dst,
                                    std::size_t& bytes) {
  bytes = 0;
  if (storedFormat().codec == acquire::ChunkCodec::None) {
    return {};
  }
  std::uint32_t filterMask = 0;
  std::size_t stored = 0;
  if (std::string reason = readChunk(index, start_, dst, stored, filterMask); !reason.empty()) {
    return reason;
  }
  if (stored > dst.size() || (filterMask & 1u) != 0) {
    return {};  // larger than any chunk of ours, or stored as it is: read() takes it
  }
  const std::span<const std::byte> chunk(dst.data(), stored);
  if (chunkChecksums_ >= 0) {
    if (std::string reason = checkSum(chunkChecksums_, index, chunk, "stored chunk");
        !reason.empty()) {
      return reason;
    }
  }
  bytes = stored;
  return {};
}

std::string FrameReader::readValues(std::uint64_t index, std::span<std::byte> dst) {
  std::vector<hsize_t>& start = start_;
  start[0] = index;
  if (compressed()) {
    std::size_t stored = 0;
    std::uint32_t filterMask = 0;
    if (std::string reason = readChunk(index, start, chunk_, stored, filterMask); !reason.empty()) {
      return reason;
    }
    if (stored > chunk_.size()) {
      chunk_.resize(stored);  // another encoder's larger chunk: once
      if (std::string reason = readChunk(index, start, chunk_, stored, filterMask);
          !reason.empty()) {
        return reason;
      }
    }
    const std::span<const std::byte> chunk(chunk_.data(), stored);
    if ((filterMask & 1u) != 0) {  // the optional filter was skipped: stored as it is
      if (stored != dst.size()) {
        return "an uncompressed chunk of " + std::to_string(stored) + " bytes, expected " +
               std::to_string(dst.size());
      }
      std::copy(chunk.begin(), chunk.end(), dst.begin());
      return {};
    }
    try {
      process::decodeChunk(chunk, codec_, elementBytes_, dst, scratch_);
    } catch (const process::ChunkError& e) {
      return e.what();
    }
    return {};
  }
  if (H5Sselect_hyperslab(fileSpace_.get(), H5S_SELECT_SET, start.data(), nullptr, count_.data(),
                          nullptr) < 0) {
    return errorStackText();
  }
  if (H5Dread(dataset_, memType_, memSpace_.get(), fileSpace_.get(), H5P_DEFAULT, dst.data()) < 0) {
    const std::string reason = errorStackText();
    return reason.empty() ? "unknown HDF5 error" : reason;
  }
  return {};
}

namespace {

void checkIndex(const std::filesystem::path& path, const char* dataset, std::uint64_t index,
                std::uint64_t frames) {
  if (index >= frames) {
    throw acquire::SourceError(path.string() + ": " + dataset + ": frame " + std::to_string(index) +
                               " out of range (" + acquire::framesText(frames) + ")");
  }
}

[[noreturn]] void damaged(const std::filesystem::path& path, const char* dataset,
                          std::uint64_t index, const std::string& reason) {
  throw acquire::DamagedFrameError(path.string() + ": " + dataset + ": reading frame " +
                                   std::to_string(index) + " failed (damaged data?): " + reason);
}

}  // namespace

void readRecordedFrame(FrameReader& reader, const std::filesystem::path& path, const char* dataset,
                       std::uint64_t index, std::uint64_t frames, std::span<std::byte> dst,
                       std::size_t frameBytes) {
  checkIndex(path, dataset, index, frames);
  if (dst.size() != frameBytes) {
    throw acquire::SourceError(path.string() + ": " + dataset + ": frame " + std::to_string(index) +
                               ": destination holds " + std::to_string(dst.size()) +
                               " bytes, a frame needs " + std::to_string(frameBytes));
  }
  const ErrorScope scope;
  if (const std::string reason = reader.read(index, dst); !reason.empty()) {
    damaged(path, dataset, index, reason);
  }
}

std::size_t readRecordedChunk(FrameReader& reader, const std::filesystem::path& path,
                              const char* dataset, std::uint64_t index, std::uint64_t frames,
                              std::span<std::byte> dst) {
  checkIndex(path, dataset, index, frames);
  const ErrorScope scope;
  std::size_t bytes = 0;
  if (const std::string reason = reader.readStored(index, dst, bytes); !reason.empty()) {
    damaged(path, dataset, index, reason);
  }
  return bytes;
}

}  // namespace cineflow::store

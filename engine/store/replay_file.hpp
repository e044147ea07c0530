#pragma once
// Reading recordings for replay (ultrasound/rf_file_source, oct/oct_file_source): what a Cineflow
// HDF5 file says it is, asked cheaply (the root attribute `schema`: "cineflow.rf/1",
// "cineflow.oct/1", "cineflow.volume/1", ..., for the source factory, which picks a reader by it
// before any reader validates the file), opening one, and reading one frame of its samples.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "acquire/recording_input.hpp"
#include "acquire/stored_frame.hpp"
#include "process/bitshuffle_lz4.hpp"
#include "store/hdf5_handle.hpp"

namespace cineflow::store {

// Opens the recording `path` read-only for replay, without HDF5's file locking (which fails on
// some read-only and network file systems). Throws acquire::SourceError "PATH: problem" for a
// missing file, a folder ("is a directory, not KIND"), a file without HDF5's signature ("not an
// HDF5 file (...)" followed by `notHdf5Hint` when given) or one HDF5 cannot open (damaged or
// truncated). A raw recording still being written, or cut off by a crash (HDF5 marks it open for
// writing), opens in HDF5's single-writer/multiple-reader read mode. Call it inside an ErrorScope.
H5File openForReplay(const std::filesystem::path& path, const std::string& kind,
                     const std::string& notHdf5Hint = {});
// The same for a recording's `input`: a file, or a file image in memory, which HDF5's core driver
// opens from a copy of its bytes (the file-image mechanism H5LTopen_file_image wraps), without
// touching a disk; messages then name `input.path`.
H5File openForReplay(const acquire::RecordingInput& input, const std::string& kind,
                     const std::string& notHdf5Hint = {});

// The root group's string attribute `schema`; "" when `path` is not a readable HDF5 file or its
// root has no such string. Reads only the superblock and the root's attributes; never throws,
// prints nothing.
std::string rootSchema(const std::filesystem::path& path) noexcept;

// The frames a recording holds, given its frames dataset's first dimension: all of them, unless
// a raw recording was cut off (root attribute recording_complete = 0), when only those whose
// /sequence entry was written (store/raw_recorder.hpp). `interrupted` says which.
std::uint64_t recordedFrames(hid_t root, std::uint64_t datasetFrames, bool& interrupted);

// Per-frame XXH3-64 of each frame's bytes (raw recordings): the dataset's name at the root; and
// of each frame's chunk as stored (compressed raw recordings), which is checked before the chunk
// is handed over still compressed.
inline constexpr const char* kFrameChecksums = "frame_xxh3";
inline constexpr const char* kChunkChecksums = "chunk_xxh3";
// The root's checksum dataset `name`, or an empty handle when the file has none (most files
// other than raw recordings). Throws Hdf5Error when it exists but cannot be opened.
H5Dataset openChecksums(hid_t root, const char* name);
inline H5Dataset openFrameChecksums(hid_t root) {
  return openChecksums(root, kFrameChecksums);
}

// Reads one frame at a time from a recording's frames dataset [frames][d1][d2]...: by hyperslab
// through HDF5's filter pipeline, or, when its chunks are bitshuffle + LZ4 (filter 32008) or LZ4
// (filter 32004) of one frame each, as raw recordings write them, by reading each chunk as stored
// (H5Dread_chunk) and decoding it on this thread (process/chunk_codec.hpp), which needs no
// filter plugin; or hands the chunk over as stored (readStored), for the engine to decode. Its
// buffers are sized by open(): reads allocate nothing (unless a chunk is larger than any
// encoder of ours makes). One thread at a time; call it inside an ErrorScope.
class FrameReader {
 public:
  // `dataset` stays the caller's and must outlive the reader; `frameDims` = d1, d2, ...;
  // `memType` the native type the frames are read as. Throws Hdf5Error, or
  // std::invalid_argument naming what of a compressed layout it cannot decode (bitshuffle
  // without LZ4, a big-endian type, chunks that are not one whole frame).
  // With a root `checksums` dataset (kFrameChecksums, one uint64 per frame), every frame read is
  // checked against its checksum; with `chunkChecksums` (kChunkChecksums), every chunk readStored
  // hands over.
  void open(hid_t dataset, std::vector<hsize_t> frameDims, hid_t memType,
            hid_t checksums = H5I_INVALID_HID, hid_t chunkChecksums = H5I_INVALID_HID);
  bool compressed() const { return codec_ != acquire::ChunkCodec::None; }
  // The chunks' codec and sizes (codec None: not compressed, or nothing to hand over because
  // frames can only be checked once decoded: a frame checksum without a chunk checksum).
  acquire::StoredFormat storedFormat() const;
  // Frame `index`'s chunk as stored into `dst`; `bytes` its size, or 0 when the frame must be
  // read with read() (see storedFormat(), a chunk HDF5 stored uncompressed, or one larger than
  // `dst`). Returns "" or the reason it failed (HDF5's, or "does not match its checksum").
  std::string readStored(std::uint64_t index, std::span<std::byte> dst, std::size_t& bytes);
  // Frame `index` into `dst` (one frame's bytes). Returns "" on success, else the reason (HDF5's,
  // or the chunk's damage: "block 3 of 5 is not valid LZ4").
  std::string read(std::uint64_t index,
                   std::span<std::byte> dst);  // or "does not match its checksum"

 private:
  std::string readValues(std::uint64_t index, std::span<std::byte> dst);
  // Reads the chunk of frame `index` into `into`; `filterMask` HDF5's mask of skipped filters.
  std::string readChunk(std::uint64_t index, std::vector<hsize_t>& start, std::span<std::byte> into,
                        std::size_t& bytes, std::uint32_t& filterMask);

  hid_t dataset_ = H5I_INVALID_HID;
  hid_t checksums_ = H5I_INVALID_HID;
  hid_t chunkChecksums_ = H5I_INVALID_HID;
  H5Dataspace fileSpace_;
  std::vector<hsize_t> frameDims_;
  hid_t memType_ = H5I_INVALID_HID;
  std::size_t elementBytes_ = 0;
  acquire::ChunkCodec codec_ = acquire::ChunkCodec::None;
  std::vector<std::byte> chunk_;
  process::ChunkScratch scratch_;
  std::vector<hsize_t> start_, count_;  // one frame's hyperslab: [index][0]..., [1][dims]...
  H5Dataspace memSpace_;                // one frame, in the selection's shape
};

// A file source's read of frame `index` (of `frames`) from `reader`, the frames dataset being
// `dataset` ("/rf") in `path`, in one wording for every recording: throws acquire::SourceError
// for an index out of range or a destination of the wrong size (`frameBytes`), and
// acquire::DamagedFrameError "PATH: /rf: reading frame N failed (damaged data?): REASON" when
// the frame's bytes cannot be read or decoded. readRecordedChunk: the chunk as stored
// (FrameReader::readStored), its size or 0.
void readRecordedFrame(FrameReader& reader, const std::filesystem::path& path, const char* dataset,
                       std::uint64_t index, std::uint64_t frames, std::span<std::byte> dst,
                       std::size_t frameBytes);
std::size_t readRecordedChunk(FrameReader& reader, const std::filesystem::path& path,
                              const char* dataset, std::uint64_t index, std::uint64_t frames,
                              std::span<std::byte> dst);

}  // namespace cineflow::store

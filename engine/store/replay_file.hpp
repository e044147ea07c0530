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

// The root group's string attribute `schema`; "" when `path` is not a readable HDF5 file or its
// root has no such string. Reads only the superblock and the root's attributes; never throws,
// prints nothing.
std::string rootSchema(const std::filesystem::path& path) noexcept;

// The frames a recording holds, given its frames dataset's first dimension: all of them, unless
// a raw recording was cut off (root attribute recording_complete = 0), when only those whose
// /sequence entry was written (store/raw_recorder.hpp). `interrupted` says which.
std::uint64_t recordedFrames(hid_t root, std::uint64_t datasetFrames, bool& interrupted);

// Per-frame XXH3-64 of each frame's bytes (raw recordings): the dataset's name at the root.
inline constexpr const char* kFrameChecksums = "frame_xxh3";
// The root's checksum dataset, or an empty handle when the file has none (most files other than
// raw recordings). Throws Hdf5Error when it exists but cannot be opened.
H5Dataset openFrameChecksums(hid_t root);

// Reads one frame at a time from a recording's frames dataset [frames][d1][d2]...: by hyperslab
// through HDF5's filter pipeline, or, when its chunks are bitshuffle + LZ4 (filter 32008, as raw
// recordings write them) of one frame each, by reading each chunk as stored (H5Dread_chunk) and
// decoding it on this thread (process/bitshuffle_lz4.hpp), which needs no filter plugin. Its
// buffers are sized by open(): reads allocate nothing (unless a chunk is larger than any
// encoder of ours makes). One thread at a time; call it inside an ErrorScope.
class FrameReader {
 public:
  // `dataset` stays the caller's and must outlive the reader; `frameDims` = d1, d2, ...;
  // `memType` the native type the frames are read as. Throws Hdf5Error, or
  // std::invalid_argument naming what of a compressed layout it cannot decode (bitshuffle
  // without LZ4, a big-endian type, chunks that are not one whole frame).
  // With a root `checksums` dataset (kFrameChecksums, one uint64 per frame), every frame read is
  // checked against its checksum.
  void open(hid_t dataset, std::vector<hsize_t> frameDims, hid_t memType,
            hid_t checksums = H5I_INVALID_HID);
  bool compressed() const { return compressed_; }
  // Frame `index` into `dst` (one frame's bytes). Returns "" on success, else the reason (HDF5's,
  // or the chunk's damage: "block 3 of 5 is not valid LZ4").
  std::string read(std::uint64_t index,
                   std::span<std::byte> dst);  // or "does not match its checksum"

 private:
  std::string readValues(std::uint64_t index, std::span<std::byte> dst);
  std::string checkSum(std::uint64_t index, std::span<const std::byte> frame);

  hid_t dataset_ = H5I_INVALID_HID;
  hid_t checksums_ = H5I_INVALID_HID;
  H5Dataspace fileSpace_;
  std::vector<hsize_t> frameDims_;
  hid_t memType_ = H5I_INVALID_HID;
  std::size_t elementBytes_ = 0;
  bool compressed_ = false;
  std::vector<std::byte> chunk_;
  process::ChunkScratch scratch_;
  std::vector<hsize_t> start_, count_;  // one frame's hyperslab: [index][0]..., [1][dims]...
  H5Dataspace memSpace_;                // one frame, in the selection's shape
};

}  // namespace cineflow::store

#pragma once
// RawRecorder: records every raw frame it is given (the engine's raw-frame tap, on the acquisition
// thread) into a recording of the frames' modality (recording_layout.hpp), with each frame's
// sequence number and timestamp, on its own I/O thread ("cf-record").
//
// The file: the modality's schema and header, its frames dataset extendible along frames, one
// frame per chunk, each chunk bitshuffle + LZ4 in HDF5 filter 32008's format, or LZ4 in filter
// 32004's with 8 KiB blocks (process/chunk_codec.hpp; h5py with hdf5plugin, HDF5 with Debian's
// bitshuffle and hdf5-filter-plugin packages, and Cineflow read them), or uncompressed;
// /sequence (uint64), /timestamp_ns (int64) and /frame_xxh3 (uint64: XXH3-64 of the frame's
// bytes as acquired, which replay checks: LZ4 itself cannot see a damaged literal) per frame,
// and for compressed recordings /chunk_xxh3 (of each chunk as stored, which replay checks before
// it hands a chunk to the GPU decoder, where the frame's own checksum cannot be computed);
// root attribute recording_complete = 0 while recording, 1 once stopped cleanly. It is written in
// HDF5's single-writer/multiple-reader mode (file format 1.10): every structure on disk stays
// consistent, and it is flushed after every frame, so a recording cut off by a crash, a kill or a
// full disk opens with every frame written before it (recording_complete = 0 says it was cut
// off; a frame's /sequence entry is written after the frame, so readers count the frames whose
// entry exists: store/replay_file.hpp, recordedFrames()).
//
// Submitting never allocates: frames are copied into a fixed set of slots. Policy Block: submit()
// waits for a free slot (the acquisition waits, nothing is lost); Drop: a frame without a free
// slot is not recorded and counted. A write error (a full disk, a removed drive) stops the
// recording: later frames are refused and counted, the frames written so far stay in the file,
// and stats().error says why.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "acquire/frame.hpp"
#include "store/recording_layout.hpp"

namespace cineflow::store {

enum class RecordCompression { None, BitshuffleLz4, Lz4 };
enum class RecordPolicy { Block, Drop };

const char* toString(RecordCompression compression) noexcept;  // "none" | "bitshuffle-lz4" | "lz4"
// "none", "bitshuffle-lz4" or "lz4"; throws std::invalid_argument naming the choices.
RecordCompression parseRecordCompression(const std::string& text);

// How a recording's frames are stored: the compression and its blocks in bytes (0: the codec's
// default, 8 KiB; process::chunkBlockProblem() tells the valid sizes). Smaller blocks give a GPU
// replay more blocks to decode side by side, at a small cost in size.
struct RecordCodec {
  RecordCodec(RecordCompression compression = RecordCompression::BitshuffleLz4,  // NOLINT
              std::size_t blockBytes = 0)
      : compression(compression), blockBytes(blockBytes) {}
  RecordCompression compression;
  std::size_t blockBytes;
};

struct RecorderStats {
  std::uint64_t written = 0;          // frames in the file
  std::uint64_t dropped = 0;          // frames not recorded (no free slot, or after an error)
  std::uint64_t rawBytes = 0;         // of the frames written
  std::uint64_t compressedBytes = 0;  // their chunks on disk
  bool running = false;
  std::string error;  // why the recording stopped early; empty otherwise
};

class RawRecorder {
 public:
  // Creates `path` (refusing a missing or read-only folder, an existing file: recordings are
  // never overwritten, or a block size the codec cannot take) and starts the I/O thread. Throws
  // StoreError.
  RawRecorder(const std::filesystem::path& path, RecordingLayout layout, RecordCodec codec,
              RecordPolicy policy, int slots = 16, const AttributeMap& extra = {});
  ~RawRecorder();  // stop(); never throws
  RawRecorder(const RawRecorder&) = delete;
  RawRecorder& operator=(const RawRecorder&) = delete;

  // One raw frame (exactly layout.frameBytes() bytes). Returns false when it was not recorded
  // (Drop with no free slot, stopped, or after an error). One producer thread at a time.
  bool submit(const acquire::FrameHeader& header, std::span<const std::byte> frame);
  // Writes what is queued, marks the recording complete and closes it. Idempotent.
  RecorderStats stop();
  RecorderStats stats() const;
  const std::filesystem::path& path() const { return path_; }

 private:
  struct File;  // HDF5 stays out of this header
  struct Slot {
    acquire::FrameHeader header;
    std::vector<std::byte> bytes;
  };
  void run();
  void write(const Slot& slot);
  void flush();
  void fail(const std::string& why);

  std::filesystem::path path_;
  RecordingLayout layout_;
  RecordCompression compression_;
  std::size_t blockBytes_;  // the codec's blocks (0: its default)
  RecordPolicy policy_;
  std::unique_ptr<File> file_;
  std::vector<Slot> slots_;
  std::vector<std::byte> scratch_;  // the I/O thread's compressed chunk

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<int> free_, queued_;  // slot indices
  bool stopping_ = false;
  bool failed_ = false;
  RecorderStats stats_;
  std::thread thread_;
};

}  // namespace cineflow::store

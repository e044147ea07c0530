#pragma once
// Cineloop: the last M images, kept in device memory (host memory on the CPU backend).
//
// Written only by work on the engine's compute stream; read by the display and by review from any
// thread without ever blocking the writer. Each slot carries a generation count in the manner of a
// seqlock (odd while being written): a reader copies the pixels, then checks that the generation
// did not move, and retries otherwise. The storage is reference-counted, so a reconfiguration
// (new grid) never frees memory a reader is still copying from.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "acquire/frame.hpp"
#include "compute/buffer.hpp"
#include "process/image_geometry.hpp"

namespace cineflow::pipeline {

class Cineloop {
 public:
  Cineloop() = default;
  Cineloop(const Cineloop&) = delete;
  Cineloop& operator=(const Cineloop&) = delete;

  // Allocates `capacity` images of `geometry` and forgets every previous entry. Engine thread,
  // with no frame in flight. Throws on allocation failure (the previous storage stays).
  void configure(compute::Backend& backend, int capacity, const process::ImageGeometry& geometry);

  int capacity() const;
  process::ImageGeometry geometry() const;

  // Writer side: the engine thread claims a slot and calls beginWrite() before enqueuing the work
  // that writes it; endWrite() runs as a host callback once that work has completed.
  int claimNextSlot();  // engine thread
  compute::DeviceSpan<float> slotImage(int slot) const;
  // `count` consecutive slots from `first` as one span ([count][nz][nx]): a volume's block.
  compute::DeviceSpan<float> slotsImage(int first, int count) const;
  void beginWrite(int slot) noexcept;
  // `fresh`: every layer was computed from this frame (pipeline/engine_types.hpp CompletedFrame).
  void endWrite(int slot, const acquire::FrameHeader& header, bool fresh = true) noexcept;
  // Instead of endWrite(): the slot's image is not to be shown (a damaged frame); it stays empty
  // until written again.
  void abandonWrite(int slot) noexcept;

  // Reader side (any thread).
  std::optional<acquire::FrameHeader> latest() const;
  std::vector<acquire::FrameHeader> headers() const;  // complete entries, oldest first
  // Copies the image of `sequence` (the newest when nullopt) into `pixels` (resized to
  // geometry.values(): every layer), with its header and geometry. Returns false when no such
  // complete entry exists. `fresh`, when given, says whether every layer was computed from that
  // frame (endWrite()).
  bool copyImage(std::optional<std::uint64_t> sequence, std::vector<float>& pixels,
                 acquire::FrameHeader& header, process::ImageGeometry& geometry,
                 bool* fresh = nullptr) const;

  // The general form of copyImage for readers that copy elsewhere (the display copies device to
  // texture, the readout one pixel): `read` gets the slot's image (device memory on the CUDA
  // backend, geometry.values() values: every layer) and must have finished reading it when it
  // returns (e.g. synchronised its stream); it returns false to give up. The read is then validated
  // against the seqlock and repeated if the slot was rewritten meanwhile. Returns true with the
  // header and geometry of what was read (and `fresh`, when given), false when no such complete
  // entry exists or `read` gave up.
  using ImageReader =
      std::function<bool(const float* image, const process::ImageGeometry& geometry)>;
  bool readImage(std::optional<std::uint64_t> sequence, const ImageReader& read,
                 acquire::FrameHeader& header, process::ImageGeometry& geometry,
                 bool* fresh = nullptr) const;

 private:
  struct Slot {
    std::atomic<std::uint64_t> generation{0};  // odd while being written; 0: never written
    acquire::FrameHeader header;               // guarded by Storage::headerMutex
    bool fresh = true;                         // guarded by Storage::headerMutex
  };
  struct Storage {
    compute::Backend* backend = nullptr;
    compute::DeviceBuffer<float> images;
    std::vector<Slot> entries;  // not "slots": Qt defines that word as a macro
    process::ImageGeometry geometry;
    mutable std::mutex headerMutex;
    std::atomic<int> newest{-1};
    std::atomic<std::uint64_t> written{0};  // completed writes, for ordering entries
    std::vector<std::uint64_t> writeOrder;  // per slot, value of `written` at its end; headerMutex
  };

  std::shared_ptr<const Storage> storage() const;
  static std::optional<int> findSlot(const Storage& s, std::optional<std::uint64_t> sequence);

  mutable std::mutex storageMutex_;
  std::shared_ptr<Storage> storage_;
  int nextSlot_ = 0;  // engine thread only
};

}  // namespace cineflow::pipeline

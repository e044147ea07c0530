#pragma once
// VolumeStore: volumes the operator keeps for review, in device memory (host memory on the CPU
// backend), until they are saved or discarded (docs/development.md, The pipeline).
//
// The store reserves its whole capacity at once (setCapacity) and carves volumes out of that
// reservation, so buffering never calls the device allocator and never waits for the device:
// it enqueues device-to-device copies (the volume and its three MIPs) on a stream, after the
// volume's done event. When a volume does not fit, nothing is evicted: buffering is refused with a
// message saying how full the store is. A reservation that cannot be made is reported and the
// previous one, with every volume in it, stays.
//
// Thread safety: every method may be called from any thread. Reads of a buffered volume go
// through Access, an RAII shared lock; discard() and setCapacity() refuse while one is held.

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <span>
#include <string>
#include <vector>

#include "compute/backend.hpp"
#include "compute/buffer.hpp"
#include "process/volume.hpp"
#include "store/range_allocator.hpp"

namespace cineflow::store {

struct BufferedSummary {
  std::uint64_t id = 0;  // the store's own numbering, from 1
  process::VolumeInfo info;
  std::size_t bytes = 0;  // the volume and its MIPs
  bool saved = false;
  std::string savedPath;
};

class VolumeStore {
 public:
  explicit VolumeStore(compute::Backend& backend);
  ~VolumeStore();  // waits for pending copies
  VolumeStore(const VolumeStore&) = delete;
  VolumeStore& operator=(const VolumeStore&) = delete;

  // A safe default capacity: half the compute device's free memory (on the CPU backend a quarter
  // of free host memory, at most 4 GiB).
  static std::size_t suggestedCapacity(const compute::Backend& backend);

  // Reserves `bytes` and moves the buffered volumes into the new reservation. Returns an empty
  // string, or why nothing changed (the allocation failed, the volumes held need more, a volume is
  // being read).
  std::string setCapacity(std::size_t bytes);
  std::size_t capacity() const;
  std::size_t used() const;

  // Enqueues on `stream`, after `done`, the copy of a complete volume into the store. Returns its
  // id, or nullopt with `why` (the store is full, or has no capacity). Never allocates.
  std::optional<std::uint64_t> buffer(const process::VolumeInfo& info,
                                      const process::VolumeView& view, const compute::Event& done,
                                      compute::Stream& stream, std::string& why);
  // Copies a volume held in host memory (a saved file opened for review) into the store, marked
  // saved under `savedPath`. Nullopt with `why` when it does not fit. Blocking (a host copy).
  std::optional<std::uint64_t> adopt(const process::VolumeInfo& info, std::span<const float> volume,
                                     std::span<const float> alongY, std::span<const float> alongZ,
                                     std::span<const float> alongX, const std::string& savedPath,
                                     std::string& why);
  // Buffers the complete volume `volume` holds (Engine::lockLatestVolume()) on the store's own
  // stream, holding the lock until the copy has completed. Nullopt with `why` when `volume` is
  // empty (no complete volume yet) or does not fit.
  std::optional<std::uint64_t> bufferLatest(const process::VolumeLock& volume, std::string& why);

  // Auto-buffer: while on, onVolume() (called from the engine's volume callback) buffers every
  // volume on the endpoint stream until one does not fit; then auto-buffer turns itself off and
  // the reason waits in takeNotice().
  void setAutoBuffer(bool enabled) { autoBuffer_ = enabled; }
  bool autoBuffer() const { return autoBuffer_.load(); }
  void onVolume(const process::VolumeEndpoint& endpoint);
  std::string takeNotice();

  // Buffered volumes, oldest first.
  std::vector<BufferedSummary> list() const;

  // Shared access to one buffered volume: the view stays valid while the Access lives. The copy
  // into the store is complete once ready() has (wait on it on your stream, or synchronise it).
  class Access {
   public:
    Access() = default;
    explicit operator bool() const { return entry_ != nullptr; }
    const process::VolumeInfo& info() const;
    process::VolumeView view() const;
    const compute::Event& ready() const;
    std::uint64_t id() const;

   private:
    friend class VolumeStore;
    struct Entry;
    Access(std::shared_ptr<const Entry> entry, std::shared_ptr<const void> pool);
    std::shared_ptr<const void> pool_;  // keeps the memory alive
    std::shared_ptr<const Entry> entry_;
    std::shared_lock<std::shared_mutex> lock_;
  };
  Access access(std::uint64_t id) const;

  // Readies spare entries (their completion events and metadata storage) for as many volumes of
  // `shape` as the capacity holds (at most kMaxSpares), so that buffering, the engine thread's
  // auto-buffer included, allocates nothing host-side until they are used up. Call it off the frame
  // loop (the GUI does when a volume of a new shape appears); discarded entries become spares.
  static constexpr std::size_t kMaxSpares = 1024;
  void prepareFor(const process::VolumeShape& shape);
  std::size_t spareCount() const;

  // Frees a volume. Returns an empty string, or why not (no such volume, being read or saved).
  std::string discard(std::uint64_t id);
  // Volume `id` is saved in `path`; another volume saved in that same file (now replaced) is not
  // saved any more.
  void markSaved(std::uint64_t id, const std::string& path);

 private:
  using Entry = Access::Entry;
  struct Pool;
  std::size_t floatsFor(const process::VolumeInfo& info) const;
  std::shared_ptr<Entry> takeEntryLocked();
  std::optional<std::uint64_t> bufferLocked(const process::VolumeInfo& info,
                                            const process::VolumeView& view,
                                            const compute::Event& done, compute::Stream& stream,
                                            std::string& why);

  compute::Backend& backend_;
  mutable std::mutex mutex_;  // guards everything below
  std::shared_ptr<Pool> pool_;
  std::vector<std::shared_ptr<Entry>> entries_;
  std::vector<std::shared_ptr<Entry>> spare_;  // ready for reuse: event made, storage reserved
  std::uint64_t nextId_ = 1;
  std::atomic<bool> autoBuffer_{false};
  std::string notice_;
  std::unique_ptr<compute::Stream> stream_;  // bufferLatest's copies
};

}  // namespace cineflow::store

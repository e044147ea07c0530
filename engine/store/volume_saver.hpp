#pragma once
// VolumeSaver: saves buffered volumes on its own I/O thread, so that neither acquisition nor the
// GUI waits for a disk (DESIGN.md §3: VolumeStore -> D2H (pinned) -> HDF5 file).
//
// Each job holds the volume's VolumeStore::Access (so it cannot be discarded meanwhile), copies
// the volume and its MIPs device-to-host into pinned staging on the saver's own stream, then
// writes cineflow.volume/1 (store/volume_writer.hpp) under a temporary name and renames it. On
// success the store marks the volume saved; on failure (full disk, read-only folder, ...) the
// volume stays buffered and unsaved, no file is left behind, and the outcome says why.
//
// Thread safety: every method may be called from any thread. The store must outlive the saver.

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "compute/backend.hpp"
#include "compute/buffer.hpp"
#include "store/volume_store.hpp"
#include "store/volume_writer.hpp"

namespace cineflow::store {

struct SaveRequest {
  std::uint64_t id = 0;  // in the VolumeStore
  std::filesystem::path path;
  acquire::AcquisitionParams acquisition;
  AttributeMap attributes;
  Compression compression;
};

struct SaveOutcome {
  std::uint64_t id = 0;
  std::filesystem::path path;
  bool ok = false;
  std::string message;  // "Saved volume 3 to ..." or why not
};

class VolumeSaver {
 public:
  VolumeSaver(compute::Backend& backend, VolumeStore& store);
  ~VolumeSaver();  // finishes the job in progress, drops the queued ones, joins the thread

  void save(SaveRequest request);
  // Queued and running jobs.
  std::size_t pending() const;
  // Outcomes since the last call, oldest first.
  std::vector<SaveOutcome> takeOutcomes();
  // Blocks until nothing is pending (tests, shutdown).
  void waitIdle();

 private:
  void run();
  SaveOutcome saveOne(const SaveRequest& request);

  compute::Backend& backend_;
  VolumeStore& store_;
  std::unique_ptr<compute::Stream> stream_;
  compute::PinnedBuffer<float> staging_;  // grown by the I/O thread as volumes need

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<SaveRequest> queue_;
  bool busy_ = false;
  bool stopping_ = false;
  std::vector<SaveOutcome> outcomes_;
  std::thread thread_;  // last: starts after everything above exists
};

}  // namespace cineflow::store

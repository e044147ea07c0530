#pragma once
// VolumeSaver: saves buffered volumes, and opens saved ones for review, on its own I/O thread, so
// that neither acquisition nor the GUI waits for a disk (docs/development.md, The pipeline:
// VolumeStore -> D2H (pinned) -> HDF5 file, and back).
//
// Each job holds the volume's VolumeStore::Access (so it cannot be discarded meanwhile), copies
// the volume and its MIPs device-to-host into pinned staging on the saver's own stream, then
// writes cineflow.volume/1 (store/volume_writer.hpp) under a temporary name and renames it. On
// success the store marks the volume saved; on failure (full disk, read-only folder, ...) the
// volume stays buffered and unsaved, no file is left behind, and the outcome says why. An open job
// reads a cineflow.volume/1 file (store/volume_reader.hpp) and adopts it into the store, marked
// saved; a file that cannot be read, or does not fit, leaves the store as it was.
//
// Thread safety: every method may be called from any thread. The store must outlive the saver.

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "compute/backend.hpp"
#include "compute/buffer.hpp"
#include "profile/stage_probe.hpp"
#include "store/volume_store.hpp"
#include "store/volume_writer.hpp"

namespace cineflow::store {

struct SaveRequest {
  std::uint64_t id = 0;  // in the VolumeStore
  std::filesystem::path path;
  FileMetadata metadata;    // the modality's (modality/modality.hpp: describe())
  AttributeMap attributes;  // more, such as the backend
  Compression compression;
  // Whether a file already at `path` may be replaced: only once the operator (or a script naming
  // the path) has said so. Otherwise the save fails, naming the file, and the volume stays unsaved.
  bool mayReplace = false;
};

struct SaveOutcome {
  std::uint64_t id = 0;  // the volume saved; for an open job, the volume adopted (0 on failure)
  std::filesystem::path path;
  bool ok = false;
  std::string message;  // "Saved volume 3 to ...", "Opened volume 7 from ...", or why not
  bool opened = false;  // an open job's outcome
  // An open job's: the file's patient and study (volume_reader.hpp), for saving it again; a
  // damaged one is left out and the message says so.
  std::optional<StudyInfo> study;
  // An open job's: the acquisition the file describes (volume_reader.hpp), for saving or
  // exporting it as its own.
  FileMetadata metadata;
};

// The job in progress: which, and how far (0..1: the device copy, then the slices written).
struct SaveProgress {
  bool active = false;
  std::uint64_t id = 0;  // the volume being saved (0 while opening a file)
  double fraction = 0;
};

class VolumeSaver {
 public:
  VolumeSaver(compute::Backend& backend, VolumeStore& store);
  ~VolumeSaver();  // finishes the job in progress, drops the queued ones, joins the thread

  void save(SaveRequest request);
  // Reads `path` and adopts it into the store (an outcome with opened = true).
  void open(std::filesystem::path path);
  // Queued and running jobs.
  std::size_t pending() const;
  // Outcomes since the last call, oldest first.
  std::vector<SaveOutcome> takeOutcomes();
  SaveProgress progress() const;
  // Blocks until nothing is pending (tests, shutdown).
  void waitIdle();
  // Each successful save, from taking the job to the file renamed into place ("save" on track
  // "cf-save", keyed by the volume's last frame): for the profiler overlay and traces.
  profile::StageProbe& probe() { return probe_; }

 private:
  struct Job {
    SaveRequest save;
    std::filesystem::path open;  // non-empty: an open job
  };
  void run();
  SaveOutcome saveOne(const SaveRequest& request);
  SaveOutcome openOne(const std::filesystem::path& path);
  void setProgress(double fraction);

  compute::Backend& backend_;
  VolumeStore& store_;
  std::unique_ptr<compute::Stream> stream_;
  compute::PinnedBuffer<float> staging_;  // grown by the I/O thread as volumes need
  profile::StageProbe probe_{"save", "cf-save"};

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Job> queue_;
  bool busy_ = false;
  SaveProgress progress_;
  bool stopping_ = false;
  std::vector<SaveOutcome> outcomes_;
  std::thread thread_;  // last: starts after everything above exists
};

}  // namespace cineflow::store

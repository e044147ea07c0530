#pragma once
// Volumes from an engine to a script, and the engine's VolumeStore from Python.
//
// VolumeFeed: the engine thread's volume callback only enqueues: each complete volume (and its
// three MIPs) is copied into the VolumeStore on the endpoint stream, after the MIPs (store
// buffer(): never waits, never allocates device memory). A thread of the feed's own waits for the
// copy to complete and hands the script's callable a Volume: the stored volume and MIPs as
// zero-copy DeviceArrays (__cuda_array_interface__ and DLPack on CUDA; the NumPy array interface
// and DLPack on the CPU), valid during the call, and on the CPU backend as NumPy copies the script
// keeps (a NumPy view would outlive the volume's place in the store, which the next one reuses). A
// volume the callable keep()s stays in the store (save or discard it later, as the GUI's review
// does); any other is discarded when the call returns. At most `queue` volumes wait for the
// callable: beyond that, or when the store is full, a volume is dropped and counted. Exceptions in
// the callable are counted, the last one kept.
//
// Store: the VolumeStore and its saver (list, keep the latest, save to HDF5, discard).

#include <pybind11/pybind11.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "process/volume.hpp"
#include "py_common.hpp"
#include "store/file_metadata.hpp"
#include "store/volume_saver.hpp"
#include "store/volume_store.hpp"

namespace cineflow::pipeline {
class Engine;
}

namespace cineflow::python {

class Store {
 public:
  // Reserves `bytes` (0: VolumeStore::suggestedCapacity); `metadata` describes the volumes for
  // their files (the engine's modality, source, settings). Throws when the reservation fails.
  Store(compute::Backend& backend, std::size_t bytes,
        std::function<store::FileMetadata()> metadata);
  ~Store();  // waits for the saves in progress (GIL released by the caller)

  store::VolumeStore& volumes() { return store_; }
  compute::Backend& backend() { return backend_; }
  // Saves volume `id` to `path` (HDF5, cineflow.volume/1) and waits; throws with the saver's
  // message when it failed.
  void save(std::uint64_t id, const std::string& path, const std::string& compression);
  void discard(std::uint64_t id);                            // throws with why not
  std::uint64_t keepLatest(const pipeline::Engine& engine);  // throws with why not

 private:
  compute::Backend& backend_;
  std::function<store::FileMetadata()> metadata_;
  store::VolumeStore store_;
  store::VolumeSaver saver_;
  std::mutex saving_;  // one save waited for at a time
};

class VolumeFeed {
 public:
  VolumeFeed(std::shared_ptr<Store> store, pybind11::object callable, int queue);
  ~VolumeFeed();  // stops the thread (GIL released by the caller)
  VolumeFeed(const VolumeFeed&) = delete;
  VolumeFeed& operator=(const VolumeFeed&) = delete;

  // The engine's volume callback (engine thread): buffers and queues, never waits.
  void onVolume(const process::VolumeEndpoint& endpoint);
  // Until every queued volume has reached the callable (GIL released by the caller).
  void drain();

  const ScriptCallback& callback() const { return callback_; }
  std::uint64_t dropped() const { return dropped_.load(); }
  std::string lastDrop() const;

 private:
  void run();
  void deliver(std::uint64_t id);

  std::shared_ptr<Store> store_;
  ScriptCallback callback_;
  std::size_t queueLimit_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::uint64_t> queue_;
  bool busy_ = false;
  bool stopping_ = false;
  std::string lastDrop_;
  std::atomic<std::uint64_t> dropped_{0};
  std::thread thread_;  // last
};

}  // namespace cineflow::python

#pragma once
// What a volume save costs the engine: `cineflow bench --save-volumes DIR` runs the engine a
// second time while a VolumeSaver is kept busy, as an operator who buffers and saves volume after
// volume during acquisition would keep it: buffer the latest volume not saved yet, save it
// (cineflow.volume/1, no compression), delete the file and discard the volume once saved, again.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "acquire/frame.hpp"
#include "compute/backend.hpp"
#include "pipeline/engine.hpp"
#include "store/volume_saver.hpp"
#include "store/volume_store.hpp"

namespace cineflow::app {

struct SavingTotals {
  std::uint64_t volumesSaved = 0;
  std::uint64_t bytesSaved = 0;  // file sizes
  profile::Summary save;         // per save, milliseconds (VolumeSaver::probe())
};

// Thread safety: one thread (the one that waits for the engine) calls poll() and finish(). The
// engine must outlive this object and be stopped before it is destroyed.
class ContinuousSaver {
 public:
  // Creates `folder` if needed. Throws std::runtime_error when it cannot, or when the store cannot
  // reserve room for a few volumes.
  ContinuousSaver(compute::Backend& backend, pipeline::Engine& engine, std::filesystem::path folder,
                  acquire::AcquisitionParams acquisition);
  ~ContinuousSaver();

  // Collects finished saves and starts the next one when the saver is idle. Throws
  // std::runtime_error with the saver's message when a save failed.
  void poll();
  // Waits for the save in progress and collects it.
  void finish();
  const SavingTotals& totals() const { return totals_; }

 private:
  void collect();

  pipeline::Engine& engine_;
  std::filesystem::path folder_;
  acquire::AcquisitionParams acquisition_;
  store::VolumeStore store_;
  std::unique_ptr<store::VolumeSaver> saver_;
  std::uint64_t started_ = 0;     // saves started
  std::uint64_t lastNumber_ = 0;  // VolumeInfo::number of the last volume saved
  SavingTotals totals_;
};

}  // namespace cineflow::app

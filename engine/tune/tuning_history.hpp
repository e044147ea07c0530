#pragma once
// The tuner's memory: every measurement made on this machine, in a small versioned JSON file in
// the user's cache folder (tuning.json beside the simulators' frame cache), keyed by device,
// driver (or CPU model), Cineflow version, stage and problem size. A later run with the same key
// reuses the choice instead of measuring again; another driver or version measures afresh.
//
// {"format": "cineflow.tuning/1", "entries": [{"device": ..., "driver": ..., "version": ...,
//   "stage": "beamform", "problem": "...", "chosen": "avx2, rows",
//   "variants": [{"name": ..., "ms": ..., "sd_ms": ..., "runs": ...}, ...]}, ...]}

#include <filesystem>
#include <string>
#include <vector>

#include "tune/tuning.hpp"

namespace cineflow::tune {

inline constexpr const char* kHistoryFormat = "cineflow.tuning/1";

struct TuningKey {
  std::string device, driver, version, stage, problem;
  bool operator==(const TuningKey&) const = default;
};

struct TuningEntry {
  TuningKey key;
  std::string chosen;
  std::vector<VariantTiming> variants;  // as measured, in the stage's order
  const VariantTiming* timing(const std::string& name) const;
};

class TuningHistory {
 public:
  // $CINEFLOW_CACHE_DIR/tuning.json (or the cache folder the simulators use).
  static std::filesystem::path defaultPath();
  // Reads `path`. A missing file is an empty history; a file that is not JSON, has another
  // format or version, or entries without their fields, is ignored: the history starts empty and
  // `message` says why ("… is not a tuning history (…): measuring afresh"). Never throws.
  static TuningHistory load(const std::filesystem::path& path, std::string& message);
  // Writes the history to `path` atomically (a failure leaves the previous file whole). Throws
  // std::runtime_error naming the file.
  void save(const std::filesystem::path& path) const;

  const TuningEntry* find(const TuningKey& key) const;
  void put(TuningEntry entry);  // replaces the entry with the same key
  const std::vector<TuningEntry>& entries() const { return entries_; }

 private:
  std::vector<TuningEntry> entries_;
};

}  // namespace cineflow::tune

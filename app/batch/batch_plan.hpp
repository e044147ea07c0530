#pragma once
// A batch plan (`cineflow batch PLAN.json`, schema cineflow.batch/1): the recordings of a study
// (paths or globs), a grid of headless processing options whose every combination runs on every
// recording, where the outputs go, and how to run (backend, frames, Slurm's partition, time and
// account). Each (recording, option set) is one job. A job's id is stable (the recording's name
// and a hash of its path and options), so that a plan run again, here or on a cluster, finds
// what is already done. docs/batch.md documents the format.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cineflow::app::batch {

inline constexpr const char* kPlanSchema = "cineflow.batch/1";

struct BatchJob {
  std::string id;     // "<recording stem>-<16 hex digits>", a file name
  std::string input;  // absolute path, or a built-in source ("sim")
  // PyMUST's colour Doppler of this recording (absolute path; empty: none), for the accuracy
  // figures (batch_accuracy.hpp).
  std::string dopplerReference;
  // Headless options without their "--" and their values as text, in the plan's order.
  std::vector<std::pair<std::string, std::string>> parameters;
  // "fnumber=1.5 mode=iq" for tables and logs.
  std::string parameterText() const;
};

struct SlurmSettings {
  std::string partition, time, account;  // passed to sbatch when set
  int jobsPerTask = 1;                   // jobs one array task runs, one after the other
  int cpusPerTask = 0;                   // 0: the cluster's default
};

struct BatchPlan {
  std::filesystem::path file;       // the plan, absolute
  std::filesystem::path outputDir;  // absolute; relative paths in the plan are to its folder
  std::string backend = "cpu";      // cpu | cuda | auto, for every job
  std::uint64_t frames = 0;         // per job; 0: every frame of the recording
  bool tune = false;  // false: every stage's default implementation (results do not depend on
                      // which machine measured fastest)
  SlurmSettings slurm;
  std::vector<std::string> parameterNames;  // the grid's options, in the plan's order
  std::vector<BatchJob> jobs;               // recordings x option sets, recording-major

  // The headless command line of `job`, writing to `output` and its report to `report`.
  std::vector<std::string> headlessArguments(const BatchJob& job,
                                             const std::filesystem::path& output,
                                             const std::filesystem::path& report) const;
  std::filesystem::path outputOf(const BatchJob& job) const;  // <outputDir>/<id>.h5
  std::filesystem::path recordOf(const BatchJob& job) const;  // <outputDir>/<id>.json
  std::filesystem::path logOf(const BatchJob& job) const;     // <outputDir>/<id>.log
};

// Reads and checks `file`: its schema, inputs that exist (a glob matching nothing is an error),
// options Cineflow's headless mode knows with values it accepts. Throws std::invalid_argument
// naming the plan and the field.
BatchPlan readBatchPlan(const std::filesystem::path& file);

// The most jobs one plan may hold (recordings x option sets).
inline constexpr std::size_t kMaxPlanJobs = 100000;

// Every input a plan's entry `pattern` names: a built-in source ("sim"), or the files a path or
// glob (relative to the plan's folder) matches, sorted; throws std::invalid_argument when none.
std::vector<std::string> expandPlanInput(const std::filesystem::path& plan,
                                         const std::string& pattern);
using PlanInputExpander = std::function<std::vector<std::string>(const std::filesystem::path& plan,
                                                                 const std::string& pattern)>;
// readBatchPlan's checks on a plan's `text`, as if read from `file`, its inputs expanded by
// `expand` (readBatchPlan: expandPlanInput; the fuzz harness: without touching the disk).
BatchPlan parseBatchPlan(std::string_view text, const std::filesystem::path& file,
                         const PlanInputExpander& expand);

}  // namespace cineflow::app::batch

#pragma once
// One job of a batch plan: a headless run of this Cineflow in its own process (a crash takes only
// the job down), tried twice at most, then its record: <output>/<id>.json (schema
// cineflow.batch-record/1) with what ran (recording, options, backend, host, Slurm task), how it
// went (done or failed, attempts, the error in the run's own words) and what it measured (the
// run's cineflow.report/1: frames/s and each stage's times). The record is written last and
// atomically, so a job is done exactly when its record says so: a plan run again skips it.

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "batch/batch_plan.hpp"

namespace cineflow::app::batch {

enum class JobStatus { Pending, Done, Failed };

struct JobOutcome {
  JobStatus status = JobStatus::Pending;
  int attempts = 0;
  double seconds = 0;  // of the last attempt
  std::string error;   // when failed: the last attempt's end and its last message
};

// A JSON file (a record, a run's report) as it is; null when absent or not JSON.
nlohmann::ordered_json readJsonFile(const std::filesystem::path& path);

// What `job`'s record says (Pending when there is none or it cannot be read); Done only while its
// output exists too.
JobOutcome recordedOutcome(const BatchPlan& plan, const BatchJob& job);

// Runs `job` with `executable` (this Cineflow): a failed first attempt (an error, a crash, a
// kill) is logged and retried once. Writes the record and returns the outcome. Throws only when
// the output folder cannot be written.
JobOutcome runJob(const BatchPlan& plan, const BatchJob& job,
                  const std::filesystem::path& executable);

}  // namespace cineflow::app::batch

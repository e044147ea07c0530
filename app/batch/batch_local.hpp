#pragma once
// Runs a batch plan's jobs on this machine: `workers` jobs at a time, each in its own process
// (batch_job.hpp), jobs already done skipped. On a terminal a progress bar with counts and an
// estimate of the time left; otherwise one line per finished job (logs, Slurm task output).

#include <cstddef>
#include <vector>

#include "batch/batch_plan.hpp"

namespace cineflow::app::batch {

struct RunSummary {
  std::size_t done = 0, failed = 0, skipped = 0;  // skipped: done by an earlier run
};

// The default pool: a job's CPU backend uses every core, and a GPU runs one job at a time well,
// so jobs run one at a time unless the machine has cores to spare (one job per 8 cores).
int defaultWorkers();

// Runs plan.jobs[i] for each i in `indices` (all when empty). Ctrl+C ends the running jobs too
// (they share the terminal's process group); every job that finished keeps its record, so the
// same command resumes.
RunSummary runJobs(const BatchPlan& plan, const std::vector<std::size_t>& indices, int workers);

}  // namespace cineflow::app::batch

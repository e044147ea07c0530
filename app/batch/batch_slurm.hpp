#pragma once
// A batch plan as a Slurm job array: every array task runs `cineflow batch PLAN --task I`, the
// plan's jobs I*k .. I*k+k-1 (k: slurm.jobs_per_task) one after the other, each as a local run
// does it (batch_job.hpp: its own process, one retry, its record), so the outputs are the same
// files. Only tasks with a job not yet done are submitted. The job script is written to
// <output>/slurm/batch.sbatch (it can be submitted again by hand); the tasks' own output goes to
// <output>/slurm/task-<array job>_<task>.out. Every path is absolute: a cluster needs the plan,
// the recordings, the output folder and this executable at the same paths on its nodes.

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "batch/batch_plan.hpp"

namespace cineflow::app::batch {

// The jobs (indices into plan.jobs) array task `task` runs.
std::vector<std::size_t> taskJobs(const BatchPlan& plan, std::size_t task);

struct SlurmSubmission {
  std::string arrayJobId;  // what sbatch --parsable printed
  std::size_t tasks = 0;
  std::filesystem::path script;
  int waitStatus = 0;  // with wait: sbatch's exit status (non-zero when a task failed)
};

// Writes the job script and runs sbatch (with --wait when `wait`: it returns when every task
// ended). Throws std::runtime_error with sbatch's own message when submitting fails, and when
// every job is already done (nothing to submit: tasks == 0, no sbatch run).
SlurmSubmission submitToSlurm(const BatchPlan& plan, bool wait);

}  // namespace cineflow::app::batch

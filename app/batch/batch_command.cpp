#include "batch/batch_command.hpp"

#include <cstdio>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>

#include "arg_reader.hpp"
#include "batch/batch_collect.hpp"
#include "batch/batch_local.hpp"
#include "batch/batch_plan.hpp"
#include "batch/batch_slurm.hpp"

namespace cineflow::app {
namespace {

const char* batchUsage() {
  return R"(Usage: cineflow batch PLAN.json [options]

Runs a parameter study: every recording the plan lists with every combination of its processing
options, one headless run (job) each, writing <id>.h5 (the B-mode output), <id>.json (what ran,
how it went, frames/s and stage times) and <id>.log into the plan's output folder, then
results.csv, one row per job, and a summary table. Jobs already done are skipped, so the same
command resumes a study; a job that fails or is killed is retried once, then listed as failed
with its error.

Options:
  --jobs N             jobs at a time on this machine (default: one per 8 cores, at least 1)
  --slurm              submit the jobs as a Slurm job array instead (one task per
                       slurm.jobs_per_task jobs; --gres=gpu:1 with the cuda backend) and return
  --wait               with --slurm: wait for the array to end, then collect
  --partition NAME     with --slurm: the partition (overrides the plan's slurm.partition)
  --time LIMIT         with --slurm: each task's time limit, e.g. 00:30:00
  --account NAME       with --slurm: the account to charge
  --collect            only merge the records written so far into results.csv and the table
  --task I             run array task I's jobs (what each Slurm task runs)
  --help               print this help and exit

Plan (JSON, schema cineflow.batch/1; relative paths are relative to the plan's folder):
  {"schema": "cineflow.batch/1",
   "inputs": ["data/*.h5", "scan.mat"],          recordings: paths or globs, or "sim"
   "output": "study-results",                      default: <plan name>-results
   "backend": "cpu",                               cpu | cuda | auto (default cpu)
   "frames": 0,                                    frames per job, 0: all (default)
   "tune": false,                                  true: measure each stage's implementations
   "parameters": {"mode": ["rf", "iq"], "fnumber": [1, 1.5], "grid": "-20:20:0.1,5:50:0.05"},
   "slurm": {"partition": "gpu", "time": "00:30:00", "account": "lab", "jobs_per_task": 4,
             "cpus_per_task": 8}}
  A parameter is any headless processing option (cineflow --help) without its "--": grid,
  fnumber, apodisation, mode, iq-bandwidth, iq-decimation, prf, ensemble, ensemble-mode,
  wall-filter, doppler-average, colour-box, oct-dispersion, oct-k-table, oct-k-polynomial,
  oct-window, refractive-index, received-levels, map, on-damaged-frame, variant; a list varies
  it.
)";
}

struct BatchOptions {
  bool help = false;
  std::string plan;
  int workers = 0;  // 0: batch::defaultWorkers()
  bool slurm = false, wait = false, collect = false;
  std::optional<std::size_t> task;
  std::optional<std::string> partition, time, account;
};

BatchOptions parse(int argc, char** argv) {
  BatchOptions options;
  ArgReader args(argc, argv, 2, "batch: ");
  while (args.next()) {
    if (args.flag("--help", "-h")) {
      options.help = true;
    } else if (args.option("--jobs")) {
      options.workers = args.number<int>();
      if (options.workers < 1) {
        throw args.error("must be at least 1");
      }
    } else if (args.flag("--slurm")) {
      options.slurm = true;
    } else if (args.flag("--wait")) {
      options.wait = true;
    } else if (args.flag("--collect")) {
      options.collect = true;
    } else if (args.option("--task")) {
      options.task = args.number<std::size_t>();
    } else if (args.option("--partition")) {
      options.partition = args.value();
    } else if (args.option("--time")) {
      options.time = args.value();
    } else if (args.option("--account")) {
      options.account = args.value();
    } else if (args.positional() && options.plan.empty()) {
      options.plan = std::string(args.current());
    } else {
      args.rejectUnknown("see cineflow batch --help");
    }
  }
  if (options.help) {
    return options;
  }
  if (options.plan.empty()) {
    throw std::invalid_argument("batch: which plan? cineflow batch PLAN.json (see --help)");
  }
  const bool slurmOnly = options.wait || options.partition || options.time || options.account;
  if (slurmOnly && !options.slurm) {
    throw std::invalid_argument("batch: --wait, --partition, --time and --account go with --slurm");
  }
  if (static_cast<int>(options.slurm) + static_cast<int>(options.collect) +
          static_cast<int>(options.task.has_value()) >
      1) {
    throw std::invalid_argument("batch: --slurm, --collect and --task exclude each other");
  }
  return options;
}

int exitCode(const batch::Collected& collected) {
  return collected.failed == 0 && collected.pending == 0 ? 0 : 1;
}

}  // namespace

int runBatch(int argc, char** argv) {
  BatchOptions options;
  batch::BatchPlan plan;
  try {
    options = parse(argc, argv);
    if (options.help) {
      std::fputs(batchUsage(), stdout);
      return 0;
    }
    plan = batch::readBatchPlan(options.plan);
  } catch (const std::exception& e) {
    std::cerr << "cineflow " << e.what() << '\n';
    return 2;
  }
  try {
    if (options.collect) {
      return exitCode(batch::collectResults(plan));
    }
    if (options.task) {
      const auto jobs = batch::taskJobs(plan, *options.task);
      if (jobs.empty()) {
        std::cerr << "cineflow batch: task " << *options.task << " has no jobs (the plan has "
                  << plan.jobs.size() << ")\n";
        return 1;
      }
      const batch::RunSummary summary = batch::runJobs(plan, jobs, 1);
      return summary.failed == 0 ? 0 : 1;
    }
    if (options.slurm) {
      if (options.partition) {
        plan.slurm.partition = *options.partition;
      }
      if (options.time) {
        plan.slurm.time = *options.time;
      }
      if (options.account) {
        plan.slurm.account = *options.account;
      }
      const batch::SlurmSubmission submission = batch::submitToSlurm(plan, options.wait);
      if (!options.wait) {
        std::printf(
            "submitted %zu array tasks as Slurm job %s (script %s); when they end: "
            "cineflow batch %s --collect\n",
            submission.tasks, submission.arrayJobId.c_str(), submission.script.c_str(),
            plan.file.c_str());
        return 0;
      }
      return exitCode(batch::collectResults(plan));
    }
    batch::runJobs(plan, {}, options.workers > 0 ? options.workers : batch::defaultWorkers());
    return exitCode(batch::collectResults(plan));
  } catch (const std::exception& e) {
    std::cerr << "cineflow batch: " << e.what() << '\n';
    return 1;
  }
}

}  // namespace cineflow::app

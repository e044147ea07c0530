#include "batch/batch_slurm.hpp"

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "acquire/child_process.hpp"
#include "batch/batch_job.hpp"

namespace cineflow::app::batch {
namespace {

// 'text' for the shell, whatever it holds.
std::string quoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text) {
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return out + "'";
}

// What sbatch --parsable prints: "<job id>" or "<job id>;<cluster>".
bool isJobId(const std::string& line) {
  return !line.empty() && line.front() >= '0' && line.front() <= '9' &&
         line.substr(0, line.find(';')).find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

std::vector<std::size_t> taskJobs(const BatchPlan& plan, std::size_t task) {
  const auto k = static_cast<std::size_t>(plan.slurm.jobsPerTask);
  std::vector<std::size_t> jobs;
  for (std::size_t j = task * k; j < std::min(plan.jobs.size(), task * k + k); ++j) {
    jobs.push_back(j);
  }
  return jobs;
}

SlurmSubmission submitToSlurm(const BatchPlan& plan, bool wait) {
  const auto k = static_cast<std::size_t>(plan.slurm.jobsPerTask);
  const std::size_t chunks = (plan.jobs.size() + k - 1) / k;
  std::string array;
  SlurmSubmission submission;
  for (std::size_t task = 0; task < chunks; ++task) {
    const auto jobs = taskJobs(plan, task);
    if (std::any_of(jobs.begin(), jobs.end(), [&](std::size_t j) {
          return recordedOutcome(plan, plan.jobs[j]).status != JobStatus::Done;
        })) {
      if (!array.empty()) {
        array += ',';
      }
      array += std::to_string(task);
      ++submission.tasks;
    }
  }
  if (submission.tasks == 0) {
    throw std::runtime_error("every job of " + plan.file.string() +
                             " is already done: nothing to submit (--collect lists them)");
  }
  const std::filesystem::path folder = plan.outputDir / "slurm";
  std::filesystem::create_directories(folder);
  submission.script = folder / "batch.sbatch";
  {
    std::ofstream script(submission.script);
    script << "#!/bin/bash\n"
           << "# cineflow batch " << plan.file.string() << ": one array task per " << k
           << (k == 1 ? " job" : " jobs") << " (written by cineflow batch --slurm)\n"
           << "#SBATCH --job-name=cineflow-batch\n"
           << "#SBATCH --array=" << array << "\n"
           << "#SBATCH --output=" << (folder / "task-%A_%a.out").string() << "\n";
    if (!plan.slurm.partition.empty()) {
      script << "#SBATCH --partition=" << plan.slurm.partition << "\n";
    }
    if (!plan.slurm.time.empty()) {
      script << "#SBATCH --time=" << plan.slurm.time << "\n";
    }
    if (!plan.slurm.account.empty()) {
      script << "#SBATCH --account=" << plan.slurm.account << "\n";
    }
    if (plan.slurm.cpusPerTask > 0) {
      script << "#SBATCH --cpus-per-task=" << plan.slurm.cpusPerTask << "\n";
    }
    if (plan.backend == "cuda") {
      script << "#SBATCH --gres=gpu:1\n";
    }
    // The task runs as a job step, so that Slurm tracks its processes (the task's and each job's
    // headless child) and ends them whenever the task is cancelled: `scancel --batch` signals
    // only the batch script, and a child of the script itself outlives it once orphaned (the
    // linuxproc process tracking follows parents). exec: the script's signals reach srun, which
    // passes them on to the step.
    script << "exec srun --ntasks=1 --nodes=1";
    if (plan.slurm.cpusPerTask > 0) {
      script << " --cpus-per-task=" << plan.slurm.cpusPerTask;  // a step does not inherit it
    }
    script << " " << quoted(acquire::currentExecutable().string()) << " batch "
           << quoted(plan.file.string()) << " --task \"$SLURM_ARRAY_TASK_ID\"\n";
    if (!script) {
      throw std::runtime_error("cannot write " + submission.script.string());
    }
  }
  // sbatch prints the array job's id (--parsable); its messages go to the same pipe.
  std::string command = "sbatch --parsable ";
  if (wait) {
    command += "--wait ";
  }
  command += quoted(submission.script.string()) + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    throw std::runtime_error("cannot run sbatch");
  }
  std::string output;
  char buffer[256];
  bool printedId = false;
  while (fgets(buffer, sizeof buffer, pipe) != nullptr) {
    output += buffer;
    const std::string firstLine = output.substr(0, output.find('\n'));
    if (!printedId && output.find('\n') != std::string::npos && isJobId(firstLine)) {
      // With --wait, sbatch prints the id at once and returns when the array ended.
      std::fprintf(stderr, "cineflow batch: submitted Slurm job array %s (%zu tasks)%s\n",
                   firstLine.c_str(), submission.tasks, wait ? "; waiting for it" : "");
      printedId = true;
    }
  }
  const int status = pclose(pipe);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
    throw std::runtime_error(
        "sbatch is not here: submitting needs Slurm's client (Debian: "
        "slurm-client) on a machine of the cluster");
  }
  const std::string firstLine = output.substr(0, output.find('\n'));
  if (!isJobId(firstLine)) {
    throw std::runtime_error("sbatch refused the job array: " +
                             (output.empty() ? std::string("it printed nothing") : output));
  }
  submission.arrayJobId = firstLine.substr(0, firstLine.find(';'));
  submission.waitStatus = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return submission;
}

}  // namespace cineflow::app::batch

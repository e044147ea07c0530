#include "batch/batch_local.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

#include "acquire/child_process.hpp"
#include "base/thread_name.hpp"
#include "batch/batch_job.hpp"

namespace cineflow::app::batch {
namespace {

using Clock = std::chrono::steady_clock;

std::string durationText(double seconds) {
  const long total = std::lround(seconds);
  if (total < 60) {
    return std::to_string(total) + " s";
  }
  if (total < 3600) {
    return std::to_string(total / 60) + " min " + std::to_string(total % 60) + " s";
  }
  return std::to_string(total / 3600) + " h " + std::to_string(total % 3600 / 60) + " min";
}

// Shared by the workers and the thread that draws the progress.
struct Progress {
  std::mutex mutex;
  std::condition_variable changed;
  std::size_t next = 0;  // into `pending`
  std::size_t finished = 0, failed = 0, running = 0;
  double busySeconds = 0;  // summed over finished jobs
};

}  // namespace

int defaultWorkers() {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  return static_cast<int>(std::max(1u, cores / 8));
}

RunSummary runJobs(const BatchPlan& plan, const std::vector<std::size_t>& indices, int workers) {
  RunSummary summary;
  std::vector<std::size_t> pending;
  for (std::size_t k = 0; k < plan.jobs.size(); ++k) {
    if (!indices.empty() && std::find(indices.begin(), indices.end(), k) == indices.end()) {
      continue;
    }
    if (recordedOutcome(plan, plan.jobs[k]).status == JobStatus::Done) {
      ++summary.skipped;
    } else {
      pending.push_back(k);
    }
  }
  const bool terminal = isatty(STDERR_FILENO) != 0;
  std::fprintf(stderr,
               "cineflow batch: %zu jobs to run, %zu already done, %d at a time; "
               "outputs in %s\n",
               pending.size(), summary.skipped, workers, plan.outputDir.c_str());
  if (pending.empty()) {
    return summary;
  }
  const std::filesystem::path executable = acquire::currentExecutable();
  Progress progress;
  const auto begin = Clock::now();
  const auto draw = [&](bool final) {  // under progress.mutex
    const std::size_t total = pending.size();
    const double elapsed = std::chrono::duration<double>(Clock::now() - begin).count();
    std::string eta = "estimating";
    if (progress.finished > 0) {
      // The jobs left at the mean time of those finished, shared by the workers.
      const double perJob = progress.busySeconds / static_cast<double>(progress.finished);
      eta = durationText(perJob * static_cast<double>(total - progress.finished) /
                         static_cast<double>(std::min<std::size_t>(workers, total)));
    }
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(kWidth * progress.finished / total);
    std::fprintf(stderr, "\r[%s%s] %zu/%zu done · %zu failed · %zu running · %s %s   ",
                 std::string(filled, '#').c_str(), std::string(kWidth - filled, '.').c_str(),
                 progress.finished, total, progress.failed, progress.running,
                 final ? "took" : "ETA", final ? durationText(elapsed).c_str() : eta.c_str());
    if (final) {
      std::fputc('\n', stderr);
    }
  };

  std::vector<std::thread> pool;
  for (int w = 0; w < std::min<int>(workers, static_cast<int>(pending.size())); ++w) {
    pool.emplace_back([&] {
      base::setCurrentThreadName("cf-batch");
      for (;;) {
        std::size_t index = 0;
        {
          std::lock_guard lock(progress.mutex);
          if (progress.next >= pending.size()) {
            return;
          }
          index = pending[progress.next++];
          ++progress.running;
        }
        JobOutcome outcome;
        try {
          outcome = runJob(plan, plan.jobs[index], executable);
        } catch (const std::exception& e) {
          outcome.status = JobStatus::Failed;
          outcome.error = e.what();
        }
        std::lock_guard lock(progress.mutex);
        --progress.running;
        ++progress.finished;
        progress.busySeconds += outcome.seconds;
        if (outcome.status != JobStatus::Done) {
          ++progress.failed;
        }
        if (!terminal || outcome.status != JobStatus::Done) {
          std::fprintf(
              stderr, "%scineflow batch: %s %s (%s) %s in %s%s%s\n", terminal ? "\r" : "",
              plan.jobs[index].id.c_str(), outcome.status == JobStatus::Done ? "done" : "FAILED",
              plan.jobs[index].parameterText().c_str(), outcome.attempts > 1 ? "after a retry" : "",
              durationText(outcome.seconds).c_str(), outcome.error.empty() ? "" : ": ",
              outcome.error.c_str());
        }
        progress.changed.notify_all();
      }
    });
  }
  {
    std::unique_lock lock(progress.mutex);
    while (progress.finished < pending.size()) {
      if (terminal) {
        draw(false);
      }
      progress.changed.wait_for(lock, std::chrono::seconds(1));
    }
    if (terminal) {
      draw(true);
    }
  }
  for (std::thread& thread : pool) {
    thread.join();
  }
  summary.done = pending.size() - progress.failed;
  summary.failed = progress.failed;
  return summary;
}

}  // namespace cineflow::app::batch

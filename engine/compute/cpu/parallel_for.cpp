#include "compute/cpu/parallel_for.hpp"
#include "base/thread_name.hpp"

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace cineflow::compute::cpu {
namespace {

// One loop in progress; lives on its caller's stack until every chunk has finished.
struct Job {
  RangeBody body;
  std::size_t count;
  std::size_t grain;
  std::size_t chunks;
  std::size_t nextChunk = 0;  // guarded by the pool mutex
  std::size_t finished = 0;   // guarded by the pool mutex
  std::exception_ptr error;   // first exception, guarded by the pool mutex
};

// CINEFLOW_THREADS when it is a whole number in [1, 256], else every core the hardware reports
// (at least one). A value that is not such a number is said on stderr once and ignored.
std::size_t threadsWanted() {
  const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  const char* env = std::getenv("CINEFLOW_THREADS");
  if (env == nullptr || *env == '\0') {
    return cores;
  }
  char* end = nullptr;
  errno = 0;
  const long value = std::strtol(env, &end, 10);
  if (errno != 0 || end == env || *end != '\0' || value < 1 || value > 256) {
    std::fprintf(stderr,
                 "cineflow: CINEFLOW_THREADS=\"%s\" is not a number of threads from 1 to 256; "
                 "using %zu (the cores this machine reports)\n",
                 env, cores);
    return cores;
  }
  return static_cast<std::size_t>(value);
}

class WorkerPool {
 public:
  WorkerPool() {
    const std::size_t threads = threadsWanted();
    jobs_.reserve(64);
    for (std::size_t i = 1; i < threads; ++i) {  // the caller is the remaining thread
      workers_.emplace_back([this, i] { work(i); });
    }
  }

  ~WorkerPool() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    jobAvailable_.notify_all();
    for (auto& worker : workers_) {
      worker.join();
    }
  }

  std::size_t parallelism() const noexcept { return workers_.size() + 1; }

  void run(Job& job) {
    std::unique_lock lock(mutex_);
    jobs_.push_back(&job);
    lock.unlock();
    jobAvailable_.notify_all();
    lock.lock();
    while (job.nextChunk < job.chunks) {
      runChunk(job, lock);
    }
    jobFinished_.wait(lock, [&] { return job.finished == job.chunks; });
    jobs_.erase(std::find(jobs_.begin(), jobs_.end(), &job));
    if (job.error) {
      std::rethrow_exception(job.error);
    }
  }

 private:
  // Claims and runs the next chunk of `job`; called and returns with the lock held.
  void runChunk(Job& job, std::unique_lock<std::mutex>& lock) {
    const std::size_t chunk = job.nextChunk++;
    lock.unlock();
    std::exception_ptr error;
    const std::size_t begin = chunk * job.grain;
    try {
      job.body(begin, std::min(job.count, begin + job.grain));
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    if (error && !job.error) {
      job.error = error;
    }
    if (++job.finished == job.chunks) {
      jobFinished_.notify_all();
    }
  }

  Job* findOpenJob() {
    for (Job* job : jobs_) {
      if (job->nextChunk < job->chunks) {
        return job;
      }
    }
    return nullptr;
  }

  void work(std::size_t index) {
    base::setCurrentThreadName("cf-pool-" + std::to_string(index));
    std::unique_lock lock(mutex_);
    for (;;) {
      Job* job = nullptr;
      jobAvailable_.wait(lock, [&] { return stopping_ || (job = findOpenJob()) != nullptr; });
      if (job == nullptr) {
        return;
      }
      runChunk(*job, lock);
    }
  }

  std::mutex mutex_;
  std::condition_variable jobAvailable_;
  std::condition_variable jobFinished_;
  std::vector<Job*> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

WorkerPool& pool() {
  static WorkerPool instance;
  return instance;
}

}  // namespace

void parallelFor(std::size_t count, std::size_t grain, RangeBody body) {
  if (count == 0) {
    return;
  }
  WorkerPool& workers = pool();
  if (grain == 0) {
    grain = std::max<std::size_t>(1, count / (4 * workers.parallelism()));
  }
  Job job{body, count, grain, (count + grain - 1) / grain, 0, 0, nullptr};
  if (job.chunks == 1 || workers.parallelism() == 1) {
    // The contract (chunks at most `grain` long) holds on one thread too: bodies size scratch
    // arrays on the stack by their grain.
    for (std::size_t begin = 0; begin < count; begin += grain) {
      body(begin, std::min(count, begin + grain));
    }
    return;
  }
  workers.run(job);
}

std::size_t parallelism() noexcept {
  return pool().parallelism();
}

}  // namespace cineflow::compute::cpu

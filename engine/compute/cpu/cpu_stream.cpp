#include "compute/cpu/cpu_stream.hpp"
#include "base/thread_name.hpp"

#include <cstring>
#include <exception>
#include <stdexcept>

#include "compute/cpu/cpu_event.hpp"

namespace cineflow::compute::cpu {
CpuStream::CpuStream(std::string name)
    : Stream(BackendKind::Cpu),
      name_(std::move(name)),
      queue_(kQueueCapacity),
      worker_([this] { run(); }) {}

CpuStream::~CpuStream() {
  {
    std::unique_lock lock(mutex_);
    stopping_ = true;
  }
  workAvailable_.notify_all();
  worker_.join();  // the worker drains the queue before it sees stopping_
}

void CpuStream::push(HostTask task) {
  {
    std::unique_lock lock(mutex_);
    spaceAvailable_.wait(lock, [&] { return count_ < queue_.size(); });
    queue_[(head_ + count_) % queue_.size()] = std::move(task);
    ++count_;
    ++enqueued_;
  }
  workAvailable_.notify_one();
}

void CpuStream::run() {
  base::setCurrentThreadName("cf-" + name_);
  std::unique_lock lock(mutex_);
  for (;;) {
    workAvailable_.wait(lock, [&] { return count_ > 0 || stopping_; });
    if (count_ == 0) {
      return;  // stopping and drained
    }
    HostTask task = std::move(queue_[head_]);
    head_ = (head_ + 1) % queue_.size();
    --count_;
    lock.unlock();
    spaceAvailable_.notify_one();
    try {
      task();
    } catch (const std::exception& e) {
      recordError(e.what());
    } catch (...) {
      recordError(kUnknownTaskException);
    }
    task.reset();  // destroy captures outside the lock
    lock.lock();
    ++finished_;
    progressed_.notify_all();
  }
}

void CpuStream::recordError(const std::string& what) {
  std::lock_guard lock(mutex_);
  if (error_.empty()) {
    error_ = "stream " + name_ + ": " + what;
  }
}

void CpuStream::record(Event& event) {
  CpuEvent& cpuEvent = asCpuEvent(event, "CPU stream");
  const std::uint64_t ticket = cpuEvent.issueTicket();
  push([&cpuEvent, ticket] { cpuEvent.complete(ticket); });
}

void CpuStream::wait(const Event& event) {
  CpuEvent& cpuEvent = asCpuEvent(event, "CPU stream");
  const std::uint64_t ticket = cpuEvent.currentTicket();
  if (ticket == 0) {
    return;  // never recorded: nothing to wait for (as in CUDA)
  }
  push([&cpuEvent, ticket] { cpuEvent.waitFor(ticket); });
}

void CpuStream::enqueueHost(HostTask task) {
  push(std::move(task));
}

void CpuStream::copyAsync(void* dst, const void* src, std::size_t bytes) {
  if (bytes == 0) {
    return;
  }
  if (dst == nullptr || src == nullptr) {
    throw std::invalid_argument("copyAsync on stream " + name_ + ": null pointer");
  }
  push([dst, src, bytes] { std::memcpy(dst, src, bytes); });
}

void CpuStream::synchronize() {
  std::unique_lock lock(mutex_);
  const std::uint64_t target = enqueued_;
  progressed_.wait(lock, [&] { return finished_ >= target; });
}

std::string CpuStream::takeError() {
  std::lock_guard lock(mutex_);
  return std::exchange(error_, std::string());
}

}  // namespace cineflow::compute::cpu

#pragma once
// CPU-backend stream: one named worker thread running tasks in order from a fixed-capacity queue
// (enqueue blocks while the queue is full, as CUDA's launch queue does). Nothing is allocated per
// task. The destructor finishes all enqueued work, then joins the worker.

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "compute/backend.hpp"

namespace cineflow::compute::cpu {

class CpuStream final : public Stream {
 public:
  static constexpr std::size_t kQueueCapacity = 1024;

  explicit CpuStream(std::string name);
  ~CpuStream() override;
  CpuStream(const CpuStream&) = delete;
  CpuStream& operator=(const CpuStream&) = delete;

  const std::string& name() const override { return name_; }
  void record(Event& event) override;
  void wait(const Event& event) override;
  void enqueueHost(HostTask task) override;
  void copyAsync(void* dst, const void* src, std::size_t bytes) override;
  void synchronize() override;
  std::string takeError() override;

 private:
  void push(HostTask task);
  void run();
  void recordError(const std::string& what);  // keeps the first

  std::string name_;
  std::mutex mutex_;
  std::condition_variable workAvailable_;
  std::condition_variable spaceAvailable_;
  std::condition_variable progressed_;
  std::vector<HostTask> queue_;
  std::size_t head_ = 0;
  std::size_t count_ = 0;
  std::uint64_t enqueued_ = 0;
  std::uint64_t finished_ = 0;
  bool stopping_ = false;
  std::string error_;
  std::thread worker_;  // last: starts after every other member exists
};

}  // namespace cineflow::compute::cpu

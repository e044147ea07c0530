#pragma once
// CPU-backend event: a ticket counter. record() hands out ticket n and enqueues a task that marks
// n complete; waiters block until the completed ticket reaches the one current when they asked
// (the semantics of cudaStreamWaitEvent / cudaEventSynchronize).

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

#include "compute/backend.hpp"

namespace cineflow::compute::cpu {

class CpuEvent final : public Event {
 public:
  CpuEvent() : Event(BackendKind::Cpu) {}
  bool query() const override;
  void synchronize() const override;
  double elapsedMsSince(const Event& start) const override;

  std::uint64_t issueTicket();          // called by record()
  std::uint64_t currentTicket() const;  // most recent record's ticket (0: never recorded)
  void complete(std::uint64_t ticket);  // runs on the recording stream's worker
  void waitFor(std::uint64_t ticket) const;

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable completedChanged_;
  std::uint64_t issued_ = 0;
  std::uint64_t completed_ = 0;
  std::chrono::steady_clock::time_point completedAt_{};
};

// `event` as the CPU event it is; std::invalid_argument naming `user` for another backend's.
CpuEvent& asCpuEvent(const Event& event, const char* user);

}  // namespace cineflow::compute::cpu

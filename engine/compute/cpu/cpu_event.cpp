#include "compute/cpu/cpu_event.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace cineflow::compute::cpu {

bool CpuEvent::query() const {
  std::lock_guard lock(mutex_);
  return completed_ >= issued_;
}

void CpuEvent::synchronize() const {
  waitFor(currentTicket());
}

CpuEvent& asCpuEvent(const Event& event, const char* user) {
  if (event.kind() != BackendKind::Cpu) {
    throw std::invalid_argument(std::string(user) + ": given an event of another backend");
  }
  return const_cast<CpuEvent&>(static_cast<const CpuEvent&>(event));
}

double CpuEvent::elapsedMsSince(const Event& start) const {
  const CpuEvent* begin = &asCpuEvent(start, "elapsedMsSince");
  if (!query() || !begin->query()) {
    throw std::logic_error("elapsedMsSince: an event has not completed");
  }
  std::chrono::steady_clock::time_point from;
  {
    std::lock_guard lock(begin->mutex_);
    from = begin->completedAt_;
  }
  std::lock_guard lock(mutex_);
  return std::chrono::duration<double, std::milli>(completedAt_ - from).count();
}

std::uint64_t CpuEvent::issueTicket() {
  std::lock_guard lock(mutex_);
  return ++issued_;
}

std::uint64_t CpuEvent::currentTicket() const {
  std::lock_guard lock(mutex_);
  return issued_;
}

void CpuEvent::complete(std::uint64_t ticket) {
  // Notify under the lock: a waiter that sees the ticket may destroy the event at once, and the
  // condition variable must not be in use by this thread by then.
  std::lock_guard lock(mutex_);
  completed_ = std::max(completed_, ticket);
  completedAt_ = std::chrono::steady_clock::now();
  completedChanged_.notify_all();
}

void CpuEvent::waitFor(std::uint64_t ticket) const {
  std::unique_lock lock(mutex_);
  completedChanged_.wait(lock, [&] { return completed_ >= ticket; });
}

}  // namespace cineflow::compute::cpu

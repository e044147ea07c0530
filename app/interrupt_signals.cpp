#include "interrupt_signals.hpp"

namespace cineflow::app {
namespace {

std::atomic<bool> interruptFlag{false};
std::atomic<int> interruptSignal{0};
static_assert(std::atomic<int>::is_always_lock_free);  // set from a signal handler
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void onInterrupt(int signal) {
  int none = 0;
  interruptSignal.compare_exchange_strong(none, signal);
  interruptFlag.store(true);
  std::signal(signal, SIG_DFL);  // a second one ends the process at once
}

}  // namespace

InterruptSignals::InterruptSignals() {
  interruptFlag.store(false);
  interruptSignal.store(0);
  struct sigaction action {};
  action.sa_handler = onInterrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, &previousInt_);
  sigaction(SIGTERM, &action, &previousTerm_);
}

InterruptSignals::~InterruptSignals() {
  sigaction(SIGINT, &previousInt_, nullptr);
  sigaction(SIGTERM, &previousTerm_, nullptr);
}

int InterruptSignals::received() const noexcept {
  return interruptSignal.load();
}

const std::atomic<bool>* InterruptSignals::flag() const noexcept {
  return &interruptFlag;
}

const char* InterruptSignals::name(int signal) noexcept {
  return signal == SIGINT ? "SIGINT (Ctrl-C)" : signal == SIGTERM ? "SIGTERM" : "a signal";
}

}  // namespace cineflow::app

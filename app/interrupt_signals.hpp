#pragma once
// Ctrl-C and SIGTERM for the commands that run for a while (headless imaging, soak): the first
// one asks the run to end early, keeping what it has done (the command polls interrupted() and
// stops its engine); a second one ends the process at once, as the default action does.
//
// Threading: construct and destroy on the main thread, one at a time; interrupted() from any
// thread. The handler only stores a lock-free atomic and restores the default action.

#include <atomic>
#include <csignal>

namespace cineflow::app {

class InterruptSignals {
 public:
  InterruptSignals();   // installs the handlers for SIGINT and SIGTERM
  ~InterruptSignals();  // restores the actions that were there before
  InterruptSignals(const InterruptSignals&) = delete;
  InterruptSignals& operator=(const InterruptSignals&) = delete;

  // The first signal received (SIGINT or SIGTERM), 0 while none.
  int received() const noexcept;
  // The flag a run polls (what soak's plan takes).
  const std::atomic<bool>* flag() const noexcept;

  // The exit status of a command ended by `signal`: 128 + its number, as a shell reports it.
  static int exitStatus(int signal) noexcept { return 128 + signal; }
  // "SIGINT (Ctrl-C)" or "SIGTERM".
  static const char* name(int signal) noexcept;

 private:
  struct sigaction previousInt_ {};
  struct sigaction previousTerm_ {};
};

}  // namespace cineflow::app

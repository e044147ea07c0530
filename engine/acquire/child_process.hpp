#pragma once
// Runs another program and waits for it, its end told as an exit code or the signal that killed
// it: what crashes in the child takes only the child down. Used for batch jobs (app/batch) and for
// reading a file from outside in a separate process before Cineflow opens it
// (registry/file_check.hpp). posix_spawn: safe from a process with running threads.

#include <chrono>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace cineflow::acquire {

// The child could not be started at all (no such program, no process slots, no pipe).
class ProcessStartError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ProcessEnd {
  int exitCode = -1;      // when it exited
  int signal = 0;         // when a signal ended it (0: it exited)
  bool timedOut = false;  // it ran past its time and was killed (signal is then SIGKILL)
  std::string output;     // its stdout and stderr, for runProcessCaptured (at most its limit)
  bool succeeded() const { return signal == 0 && exitCode == 0; }
  std::string describe() const;  // "exit code 1", "killed by signal 11 (Segmentation fault)"
};

// Runs argv[0] (a path) with `argv`, output appended to `log`. Throws ProcessStartError when it
// cannot start at all.
ProcessEnd runProcess(const std::vector<std::string>& argv, const std::filesystem::path& log);

// Runs argv[0] with `argv`, its stdout and stderr kept in ProcessEnd::output (the first
// `maxOutput` bytes; the rest is read and dropped, so the child never blocks on a full pipe), its
// stdin /dev/null. A child still running after `timeout` is killed (SIGKILL) and reported
// timedOut. `whileWaiting`, when given, is called about every 100 ms while the child runs; an
// exception it throws kills the child and goes on to the caller (an operator's cancel). Throws
// ProcessStartError when the child cannot start at all.
ProcessEnd runProcessCaptured(const std::vector<std::string>& argv,
                              std::chrono::milliseconds timeout,
                              const std::function<void()>& whileWaiting = {},
                              std::size_t maxOutput = 64 * 1024);

// The path of the running executable (/proc/self/exe).
std::filesystem::path currentExecutable();

}  // namespace cineflow::acquire

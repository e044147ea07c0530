#pragma once
// Runs another program and waits for it: its stdout and stderr appended to a log file, its end
// told as an exit code or the signal that killed it. A job that crashes takes only itself down.

#include <filesystem>
#include <string>
#include <vector>

namespace cineflow::app::batch {

struct ProcessEnd {
  int exitCode = -1;  // when it exited
  int signal = 0;     // when a signal ended it (0: it exited)
  bool succeeded() const { return signal == 0 && exitCode == 0; }
  std::string describe() const;  // "exit code 1", "killed by signal 9 (Killed)"
};

// Runs argv[0] (a path) with `argv`, output appended to `log`. Throws std::runtime_error when it
// cannot start at all.
ProcessEnd runProcess(const std::vector<std::string>& argv, const std::filesystem::path& log);

// The path of the running executable (/proc/self/exe), so that jobs run this very Cineflow.
std::filesystem::path currentExecutable();

}  // namespace cineflow::app::batch

#include "batch/child_process.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace cineflow::app::batch {

std::string ProcessEnd::describe() const {
  if (signal != 0) {
    return "killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  }
  return "exit code " + std::to_string(exitCode);
}

ProcessEnd runProcess(const std::vector<std::string>& argv, const std::filesystem::path& log) {
  std::vector<char*> args;
  for (const std::string& arg : argv) {
    args.push_back(const_cast<char*>(arg.c_str()));
  }
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(),
                                   O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  pid_t pid = 0;
  const int status = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (status != 0) {
    throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(status));
  }
  int waited = 0;
  while (waitpid(pid, &waited, 0) < 0) {
    if (errno != EINTR) {
      throw std::runtime_error("waiting for " + argv[0] + ": " + std::strerror(errno));
    }
  }
  ProcessEnd end;
  if (WIFSIGNALED(waited)) {
    end.signal = WTERMSIG(waited);
  } else {
    end.exitCode = WEXITSTATUS(waited);
  }
  return end;
}

std::filesystem::path currentExecutable() {
  return std::filesystem::read_symlink("/proc/self/exe");
}

}  // namespace cineflow::app::batch

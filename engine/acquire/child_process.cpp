#include "acquire/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace cineflow::acquire {
namespace {

// Owns one file descriptor.
class Descriptor {
 public:
  explicit Descriptor(int fd = -1) : fd_(fd) {}
  ~Descriptor() { reset(); }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }
  void reset() {
    if (fd_ >= 0) {
      ::close(fd_);
      fd_ = -1;
    }
  }

 private:
  int fd_;
};

// Owns posix_spawn's file actions.
class SpawnActions {
 public:
  SpawnActions() { posix_spawn_file_actions_init(&actions_); }
  ~SpawnActions() { posix_spawn_file_actions_destroy(&actions_); }
  SpawnActions(const SpawnActions&) = delete;
  SpawnActions& operator=(const SpawnActions&) = delete;
  posix_spawn_file_actions_t* get() { return &actions_; }

 private:
  posix_spawn_file_actions_t actions_;
};

pid_t spawn(const std::vector<std::string>& argv, SpawnActions& actions) {
  if (argv.empty()) {
    throw ProcessStartError("cannot start a program: no program named");
  }
  std::vector<char*> args;
  for (const std::string& arg : argv) {
    args.push_back(const_cast<char*>(arg.c_str()));
  }
  args.push_back(nullptr);
  pid_t pid = 0;
  const int status = posix_spawn(&pid, args[0], actions.get(), nullptr, args.data(), environ);
  if (status != 0) {
    throw ProcessStartError("cannot start " + argv[0] + ": " + std::strerror(status));
  }
  return pid;
}

ProcessEnd reap(pid_t pid, const std::string& program) {
  int waited = 0;
  while (waitpid(pid, &waited, 0) < 0) {
    if (errno != EINTR) {
      throw std::runtime_error("waiting for " + program + ": " + std::strerror(errno));
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

}  // namespace

std::string ProcessEnd::describe() const {
  if (timedOut) {
    return "killed after running past its time";
  }
  if (signal != 0) {
    return "killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  }
  return "exit code " + std::to_string(exitCode);
}

ProcessEnd runProcess(const std::vector<std::string>& argv, const std::filesystem::path& log) {
  SpawnActions actions;
  posix_spawn_file_actions_addopen(actions.get(), STDOUT_FILENO, log.c_str(),
                                   O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(actions.get(), STDOUT_FILENO, STDERR_FILENO);
  posix_spawn_file_actions_addopen(actions.get(), STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  return reap(spawn(argv, actions), argv.front());
}

ProcessEnd runProcessCaptured(const std::vector<std::string>& argv,
                              std::chrono::milliseconds timeout,
                              const std::function<void()>& whileWaiting, std::size_t maxOutput) {
  std::array<int, 2> ends{};
  if (pipe2(ends.data(), O_CLOEXEC) != 0) {
    throw ProcessStartError("cannot start " + (argv.empty() ? std::string() : argv[0]) +
                            ": no pipe: " + std::strerror(errno));
  }
  Descriptor readEnd(ends[0]);
  Descriptor writeEnd(ends[1]);
  SpawnActions actions;
  posix_spawn_file_actions_adddup2(actions.get(), writeEnd.get(), STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(actions.get(), writeEnd.get(), STDERR_FILENO);
  posix_spawn_file_actions_addopen(actions.get(), STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  const pid_t pid = spawn(argv, actions);
  writeEnd.reset();  // the pipe ends (EOF) when the child and everything it started are gone
  // Kills and reaps the child when the wait below ends by an exception (whileWaiting's).
  struct Reaper {
    pid_t pid;
    bool armed = true;
    ~Reaper() {
      if (armed) {
        kill(pid, SIGKILL);
        int ignored = 0;
        while (waitpid(pid, &ignored, 0) < 0 && errno == EINTR) {
        }
      }
    }
  } reaper{pid};

  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::string output;
  bool timedOut = false;
  std::array<char, 4096> buffer{};
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timedOut = true;
      break;
    }
    if (whileWaiting) {
      whileWaiting();
    }
    pollfd waitFor{readEnd.get(), POLLIN, 0};
    const int ready = poll(&waitFor, 1, static_cast<int>(std::min<long long>(left.count(), 100)));
    if (ready == 0 || (ready < 0 && errno == EINTR)) {
      continue;
    }
    if (ready < 0) {
      timedOut = true;  // the pipe cannot be watched: end the child rather than wait unbounded
      break;
    }
    const ssize_t got = read(readEnd.get(), buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got <= 0) {
      break;  // EOF: the child closed its output (exited)
    }
    output.append(buffer.data(), std::min(static_cast<std::size_t>(got),
                                          maxOutput - std::min(maxOutput, output.size())));
  }
  // Output closed: the child is ending (or closed it and runs on, which the deadline still bounds).
  const auto running = [pid] {
    siginfo_t info{};
    return waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
           info.si_pid == 0;
  };
  while (!timedOut && running()) {
    if (std::chrono::steady_clock::now() >= deadline) {
      timedOut = true;
      break;
    }
    if (whileWaiting) {
      whileWaiting();
    }
    usleep(10'000);
  }
  if (timedOut) {
    kill(pid, SIGKILL);
  }
  reaper.armed = false;
  ProcessEnd end = reap(pid, argv.front());
  end.timedOut = timedOut;
  end.output = std::move(output);
  return end;
}

std::filesystem::path currentExecutable() {
  return std::filesystem::read_symlink("/proc/self/exe");
}

}  // namespace cineflow::acquire

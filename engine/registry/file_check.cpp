#include "registry/file_check.hpp"

#include <malloc.h>
#include <sys/stat.h>

#include <atomic>
#include <cctype>
#include <condition_variable>
#include <csignal>
#include <cstring>
#include <fstream>
#include <functional>
#include <mutex>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

#include "acquire/child_process.hpp"
#include "base/cache_directory.hpp"
#include "base/text_file.hpp"
#include "base/thread_name.hpp"
#include "registry/source_factory.hpp"
#include "ultrasound/mat_reader.hpp"

namespace cineflow::acquire {
namespace {

struct CheckSetting {
  std::mutex mutex;
  std::filesystem::path program;
  std::chrono::milliseconds timeout{0};
  std::shared_ptr<FileCheckAhead::Pending> ahead;  // the check started ahead, until taken
};

CheckSetting& setting() {
  static CheckSetting instance;
  return instance;
}

// The child's message: its stderr without trailing white space, or a stand-in.
std::string childMessage(const std::string& output) {
  std::string text = output;
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0) {
    text.pop_back();
  }
  return text.empty() ? std::string("the check gave no reason") : text;
}

std::string seconds(std::chrono::milliseconds duration) {
  return numberText(static_cast<double>(duration.count()) / 1000.0) + " s";
}

// What identifies a file's bytes without reading them (empty when it cannot be told).
std::string identity(const std::filesystem::path& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) {
    return {};
  }
  std::ostringstream text;
  text << info.st_dev << ':' << info.st_ino << ':' << info.st_size << ':' << info.st_mtim.tv_sec
       << '.' << info.st_mtim.tv_nsec << ':' << info.st_ctim.tv_sec << '.' << info.st_ctim.tv_nsec;
  return text.str();
}

// The memo of passed checks: one line per file, "<checker identity> <file identity> <path>".
std::filesystem::path memoPath() {
  return base::cacheDirectory() / "file-checks.txt";
}

std::string memoLine(const std::filesystem::path& program, const std::string& spec) {
  const std::string checker = identity(program), file = identity(spec);
  if (checker.empty() || file.empty()) {
    return {};
  }
  std::error_code error;
  const std::filesystem::path absolute = std::filesystem::absolute(spec, error);
  return checker + ' ' + file + ' ' + (error ? spec : absolute.string());
}

bool passedBefore(const std::string& line) {
  std::ifstream memo(memoPath());
  std::string entry;
  while (std::getline(memo, entry)) {
    if (entry == line) {
      return true;
    }
  }
  return false;
}

// Adds `line` to the memo, keeping its newest 256 lines. A memo that cannot be written costs
// only another check next time; concurrent writers may each lose the other's line, likewise.
void rememberPassed(const std::string& line) {
  constexpr std::size_t kKept = 256;
  std::vector<std::string> lines;
  {
    std::ifstream memo(memoPath());
    std::string entry;
    while (std::getline(memo, entry)) {
      if (!entry.empty() && entry != line) {
        lines.push_back(entry);
      }
    }
  }
  lines.push_back(line);
  const std::size_t first = lines.size() > kKept ? lines.size() - kKept : 0;
  std::string text;
  for (std::size_t i = first; i < lines.size(); ++i) {
    text += lines[i] + '\n';
  }
  try {
    std::error_code error;
    std::filesystem::create_directories(memoPath().parent_path(), error);
    base::writeFileAtomically(memoPath().string(), text);
  } catch (const std::exception&) {
    // Checked again next time.
  }
}

struct Abandoned {};

// Runs the child; `started` false when none could start.
struct CheckRun {
  bool started = false;
  ProcessEnd end;
};

CheckRun runCheck(const std::filesystem::path& program, const std::string& spec,
                  std::chrono::milliseconds timeout, const std::function<void()>& tick) {
  CheckRun run;
  try {
    run.end = runProcessCaptured({program.string(), "check-file", spec}, timeout, tick);
    run.started = true;
  } catch (const ProcessStartError&) {
    // No child could start (no process slots, the program gone): open as before.
  }
  return run;
}

// The verdict on a finished check: returns when the file may be opened, throws SourceError when
// it may not.
void judge(const std::string& spec, const CheckRun& run, std::chrono::milliseconds timeout,
           const std::string& memo) {
  if (!run.started) {
    return;
  }
  const ProcessEnd& end = run.end;
  if (end.succeeded()) {
    if (!memo.empty()) {
      rememberPassed(memo);
    }
    return;
  }
  const std::string name = std::filesystem::path(spec).filename().string();
  const std::string library = isMatFile(spec) ? "matio" : "HDF5";
  if (end.timedOut) {
    throw SourceError(name + ": reading the file did not end within " + seconds(timeout) +
                      " (checked in a separate process): its " + library +
                      " metadata is probably damaged so that reading it loops. Cineflow did not "
                      "open it");
  }
  if (end.signal != 0) {
    throw SourceError(name + ": the file is damaged: reading it crashed the reader (" + library +
                      ") in a separate check process (signal " + std::to_string(end.signal) + ", " +
                      strsignal(end.signal) + "). Cineflow did not open it");
  }
  if (end.exitCode == 1) {
    throw SourceError(childMessage(end.output));
  }
  // Any other end (a program without `check-file`): the check cannot tell; open as before.
}

}  // namespace

struct FileCheckAhead::Pending {
  std::string spec;
  std::string memo;
  std::chrono::milliseconds timeout{0};
  std::atomic<bool> abandon{false};
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;  // guarded by mutex
  CheckRun run;       // guarded by mutex, set once with done
  std::thread thread;
};

FileCheckAhead::FileCheckAhead(const std::string& spec) {
  if (!readsFileFromOutside(spec)) {
    return;
  }
  std::filesystem::path program;
  auto pending = std::make_shared<Pending>();
  {
    std::scoped_lock lock(setting().mutex);
    program = setting().program;
    pending->timeout = setting().timeout;
  }
  if (program.empty()) {
    return;
  }
  pending->spec = spec;
  pending->memo = memoLine(program, spec);
  if (!pending->memo.empty() && passedBefore(pending->memo)) {
    return;
  }
  pending->thread = std::thread([p = pending.get(), program] {
    base::setCurrentThreadName("cf-check");
    CheckRun run;
    try {
      run = runCheck(program, p->spec, p->timeout, [p] {
        if (p->abandon.load()) {
          throw Abandoned{};
        }
      });
    } catch (...) {
      run = CheckRun{};  // abandoned: nobody takes the result
    }
    std::scoped_lock lock(p->mutex);
    p->run = std::move(run);
    p->done = true;
    p->finished.notify_all();
  });
  std::scoped_lock lock(setting().mutex);
  setting().ahead = pending;
  pending_ = std::move(pending);
}

FileCheckAhead::~FileCheckAhead() {
  if (!pending_) {
    return;
  }
  {
    std::scoped_lock lock(setting().mutex);
    if (setting().ahead == pending_) {
      setting().ahead.reset();
    }
  }
  pending_->abandon.store(true);
  pending_->thread.join();
}

void enableFileChecks(std::filesystem::path program, std::chrono::milliseconds timeout) {
  std::scoped_lock lock(setting().mutex);
  setting().program = std::move(program);
  setting().timeout = timeout;
}

void checkFileInChildProcess(const std::string& spec, const ProgressFn& progress) {
  std::filesystem::path program;
  std::chrono::milliseconds timeout{0};
  std::shared_ptr<FileCheckAhead::Pending> ahead;
  {
    std::scoped_lock lock(setting().mutex);
    program = setting().program;
    timeout = setting().timeout;
    if (setting().ahead && setting().ahead->spec == spec) {
      ahead = std::move(setting().ahead);
      setting().ahead.reset();
    }
  }
  if (program.empty()) {
    return;
  }
  const std::string name = std::filesystem::path(spec).filename().string();
  std::function<void()> tick;
  if (progress) {
    tick = [&] { progress(0.0, "checking " + name + " in a separate process"); };
  }
  if (ahead) {
    // Started ahead (FileCheckAhead): wait for it here, telling `progress`; a throw from it
    // abandons the check (the handle's destructor kills the child).
    std::unique_lock lock(ahead->mutex);
    while (!ahead->finished.wait_for(lock, std::chrono::milliseconds(100),
                                     [&] { return ahead->done; })) {
      if (tick) {
        lock.unlock();
        tick();
        lock.lock();
      }
    }
    judge(spec, ahead->run, ahead->timeout, ahead->memo);
    return;
  }
  const std::string memo = memoLine(program, spec);
  if (!memo.empty() && passedBefore(memo)) {
    return;
  }
  judge(spec, runCheck(program, spec, timeout, tick), timeout, memo);
}

void prepareCheckProcess() {
  mallopt(M_PERTURB, 0xa5);
}

void readFileForCheck(const std::string& spec) {
  if (isMatFile(spec)) {
    ultrasound::MatReader reader(spec);
    (void)reader.variableNames();
    return;
  }
  const std::unique_ptr<FrameSource> source = openSource(spec);
  std::vector<std::byte> frame(source->frameBytes());
  const std::uint64_t count = source->frameCount();
  for (const std::uint64_t index : {std::uint64_t{0}, count - 1}) {
    if (index >= count) {
      continue;
    }
    SliceInfo slice;
    try {
      source->readFrame(index, frame, slice);
    } catch (const DamagedFrameError&) {
      // A damaged frame is the engine's to skip or stop at, as the operator chose.
    }
  }
}

}  // namespace cineflow::acquire

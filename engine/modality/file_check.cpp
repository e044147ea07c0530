#include "modality/file_check.hpp"

#include <cctype>
#include <csignal>
#include <cstring>
#include <functional>
#include <mutex>
#include <utility>
#include <vector>

#include "acquire/child_process.hpp"
#include "modality/source_factory.hpp"
#include "ultrasound/mat_reader.hpp"

namespace cineflow::acquire {
namespace {

struct CheckSetting {
  std::mutex mutex;
  std::filesystem::path program;
  std::chrono::milliseconds timeout{0};
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

}  // namespace

void enableFileChecks(std::filesystem::path program, std::chrono::milliseconds timeout) {
  std::scoped_lock lock(setting().mutex);
  setting().program = std::move(program);
  setting().timeout = timeout;
}

void checkFileInChildProcess(const std::string& spec, const ProgressFn& progress) {
  std::filesystem::path program;
  std::chrono::milliseconds timeout{0};
  {
    std::scoped_lock lock(setting().mutex);
    program = setting().program;
    timeout = setting().timeout;
  }
  if (program.empty()) {
    return;
  }
  const std::string name = std::filesystem::path(spec).filename().string();
  std::function<void()> tick;
  if (progress) {
    tick = [&] { progress(0.0, "checking " + name + " in a separate process"); };
  }
  ProcessEnd end;
  try {
    end = runProcessCaptured({program.string(), "check-file", spec}, timeout, tick);
  } catch (const ProcessStartError&) {
    return;  // no child could start (no process slots, the program gone): open as before
  }
  if (end.succeeded()) {
    return;
  }
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

void readFileForCheck(const std::string& spec) {
  if (isMatFile(spec)) {
    MatReader reader(spec);
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

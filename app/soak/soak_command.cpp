#include "soak/soak_command.hpp"

#include <stdlib.h>  // mkdtemp

#include <atomic>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "base/text_file.hpp"
#include "interrupt_signals.hpp"
#include "soak/soak_json.hpp"
#include "soak/soak_options.hpp"
#include "soak/soak_report.hpp"
#include "soak/soak_session.hpp"
#include "subcommand.hpp"

namespace cineflow::app {
namespace {

constexpr double kWarmUpSeconds = 1;  // before the calibration's timed window

// Under AddressSanitizer or ThreadSanitizer resident memory says nothing about growth: freed
// blocks wait in ASan's quarantine (up to 256 MiB), and both keep shadow memory and metadata for
// every address and sync object the program touches (measured here under TSan: RSS rising 4 KB a
// frame, against 70 bytes in the release build). The goal is shown there, not judged
// (LeakSanitizer looks for leaks at exit instead).
#if defined(__SANITIZE_ADDRESS__)
constexpr const char* kSanitizer = "AddressSanitizer";
#elif defined(__SANITIZE_THREAD__)
constexpr const char* kSanitizer = "ThreadSanitizer";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr const char* kSanitizer = "AddressSanitizer";
#elif __has_feature(thread_sanitizer)
constexpr const char* kSanitizer = "ThreadSanitizer";
#else
constexpr const char* kSanitizer = nullptr;
#endif
#else
constexpr const char* kSanitizer = nullptr;
#endif

// A fresh folder under `parent` (the system's temporary folder when empty), removed with what it
// holds when this goes, unless kept.
class ScratchFolder {
 public:
  explicit ScratchFolder(const std::string& parent) {
    const std::filesystem::path base =
        parent.empty() ? std::filesystem::temp_directory_path() : std::filesystem::path(parent);
    std::string pattern = (base / "cineflow-soak-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) {
      throw std::runtime_error("cannot make a folder in " + base.string() + ": " +
                               std::generic_category().message(errno));
    }
    path_ = pattern;
  }
  ~ScratchFolder() {
    if (!keep_) {
      std::error_code ignored;
      std::filesystem::remove_all(path_, ignored);
    }
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  const std::filesystem::path& path() const { return path_; }
  void keep() { keep_ = true; }

 private:
  std::filesystem::path path_;
  bool keep_ = false;
};

std::string minuteLabel(double seconds) {
  char label[32];
  std::snprintf(label, sizeof label, "%.4g", seconds / 60);
  return label;
}

// The soak's sample points: every full minute and the end; when the run is shorter than two
// minutes, also the memory baseline half-way through (before the first minute).
std::vector<SamplePoint> soakSamples(double seconds, double baselineSeconds) {
  std::vector<SamplePoint> points;
  if (std::fmod(baselineSeconds, 60.0) != 0) {
    points.push_back({minuteLabel(baselineSeconds), baselineSeconds});
  }
  for (int minute = 1; minute * 60.0 < seconds; ++minute) {
    points.push_back({std::to_string(minute), minute * 60.0});
  }
  points.push_back({minuteLabel(seconds), seconds});
  return points;
}

struct Calibration {
  double seconds = 0;
  std::uint64_t frames = 0;
  double rateHz = 0;
};

// The processed frames/s of the workload, unthrottled, with the display and the recorder attached.
Calibration calibrate(compute::Backend& backend, const SoakWorkload& workload,
                      const SoakOptions& options, const std::filesystem::path& folder,
                      const std::atomic<bool>* interrupt) {
  SessionPlan plan;
  plan.policy = pipeline::OverflowPolicy::Block;
  plan.samples = {{"warm-up", kWarmUpSeconds},
                  {"timed", kWarmUpSeconds + options.calibrationSeconds}};
  plan.recordingPath = folder / "calibration.h5";
  plan.compression = options.compression;
  plan.displayHz = options.displayHz;
  plan.interrupt = interrupt;
  const SessionResult result = runSession(backend, workload, plan);
  std::filesystem::remove(plan.recordingPath);
  if (result.end.engineFailed) {
    throw std::runtime_error("calibration: the engine failed: " + result.end.engineError);
  }
  if (result.rows.size() < 3 || result.rows[1].label != "timed") {
    throw std::runtime_error("calibration was cut short");
  }
  Calibration calibration;
  calibration.seconds = result.rows[1].seconds - result.rows[0].seconds;
  calibration.frames = result.rows[1].processed - result.rows[0].processed;
  calibration.rateHz = static_cast<double>(calibration.frames) / calibration.seconds;
  if (calibration.frames == 0) {
    throw std::runtime_error("calibration: no frame was processed in " +
                             std::to_string(calibration.seconds) + " s");
  }
  return calibration;
}

int soak(const SoakOptions& options, compute::Backend& backend) {
  const SoakWorkload workload = soakWorkload();
  ScratchFolder folder(options.recordDir);
  // The first Ctrl-C (or SIGTERM) ends the run early, still stopping the engine, checking the
  // counts and removing the recording; a second one ends the process at once.
  const InterruptSignals interrupts;
  std::printf("backend: %s\nworkload: %s\n", backend.deviceName().c_str(),
              workload.description.c_str());
  std::fflush(stdout);

  SoakFacts facts;
  facts.device = backend.deviceName();
  facts.workload = workload.description;
  facts.policy = pipeline::toString(options.policy);
  facts.compression = store::toString(options.compression);
  facts.minutes = options.minutes;
  facts.overload = options.overload;
  if (options.rateHz > 0) {
    facts.calibratedRateHz = options.rateHz;
    std::printf("calibration: skipped, --rate %.1f frames/s\n", options.rateHz);
  } else {
    const Calibration calibration =
        calibrate(backend, workload, options, folder.path(), interrupts.flag());
    facts.calibrationSeconds = calibration.seconds;
    facts.calibrationFrames = calibration.frames;
    facts.calibratedRateHz = calibration.rateHz;
    std::printf(
        "calibration: %llu frames in %.2f s unthrottled (block, display and recorder attached): "
        "%.1f frames/s\n",
        static_cast<unsigned long long>(calibration.frames), calibration.seconds,
        calibration.rateHz);
  }
  facts.sourceRateHz = options.overload * facts.calibratedRateHz;
  const double seconds = options.minutes * 60;
  facts.memory.baselineSeconds = memoryBaselineSeconds(seconds);

  SessionPlan plan;
  plan.policy = options.policy;
  plan.rateHz = facts.sourceRateHz;
  plan.samples = soakSamples(seconds, facts.memory.baselineSeconds);
  plan.recordingPath = folder.path() / "soak.h5";
  plan.compression = options.compression;
  plan.displayHz = options.displayHz;
  plan.interrupt = interrupts.flag();
  std::printf("soak: %.4g min, source at %.1f frames/s (%.4g x), policy %s, recording %s%s\n",
              options.minutes, facts.sourceRateHz, options.overload, facts.policy.c_str(),
              plan.recordingPath.c_str(),
              options.keepRecording ? " (kept)" : " (removed at the end)");
  std::printf("%s\n", tableHeader().c_str());
  std::fflush(stdout);
  const SessionResult result = runSession(backend, workload, plan, [](const SoakRow& row) {
    std::printf("%s\n", tableLine(row).c_str());
    std::fflush(stdout);
  });
  if (options.keepRecording) {
    folder.keep();
  }
  facts.rawFrameBytes = result.rawFrameBytes;
  facts.imageBytes = result.imageBytes;
  facts.interrupted = result.interrupted;

  std::vector<SoakCheck> checks = checkCounts(result.end, options.policy);
  checks.push_back(checkMemory(result.rows, result.memory, facts.memory));
  if constexpr (kSanitizer != nullptr) {
    checks.back() = {"memory", true,
                     std::string("not judged under ") + kSanitizer +
                         " (its shadow memory and bookkeeping grow RSS; a build without it "
                         "judges this): " +
                         checks.back().detail,
                     false};
  }
  std::printf("recording: %llu frames, %.1f MB on disk (%s)\n",
              static_cast<unsigned long long>(result.end.recorded),
              static_cast<double>(result.rows.back().recordedBytes) / 1e6,
              facts.compression.c_str());
  bool passed = !result.interrupted;
  for (const SoakCheck& check : checks) {
    std::printf("%-4s %s: %s\n", !check.judged ? "--" : (check.passed ? "ok" : "FAIL"),
                check.name.c_str(), check.detail.c_str());
    passed = passed && check.passed;
  }
  std::fflush(stdout);
  if (!options.reportPath.empty()) {
    base::writeFileAtomically(
        options.reportPath, soakReportJson(facts, result.rows, result.memory, result.end, checks));
  }
  if (result.interrupted) {
    std::cerr << "cineflow: soak: interrupted before the end; the goals were not all checked\n";
  }
  for (const SoakCheck& check : checks) {
    if (!check.passed) {
      std::cerr << "cineflow: soak: goal failed: " << check.name << ": " << check.detail << '\n';
    }
  }
  std::printf("soak: %s\n", passed ? "every goal held" : "FAILED");
  return passed ? 0 : 1;
}

}  // namespace

int runSoak(int argc, char** argv) {
  return runSubcommand<SoakOptions>(argc, argv, parseSoakOptions, soakUsage(), soak);
}

}  // namespace cineflow::app

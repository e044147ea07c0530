#include "batch/batch_job.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "acquire/child_process.hpp"
#include "base/text_file.hpp"
#include "batch/batch_accuracy.hpp"

namespace cineflow::app::batch {
namespace {

using Json = nlohmann::ordered_json;
constexpr int kAttempts = 2;  // a crashed or killed job is retried once

// The last non-empty line the attempt wrote to the log (from byte `from` on).
std::string lastMessage(const std::filesystem::path& log, std::uintmax_t from) {
  std::ifstream stream(log);
  stream.seekg(static_cast<std::streamoff>(from));
  std::string line, last;
  while (std::getline(stream, line)) {
    // The headless progress line overwrites itself with '\r': its last state is what counts.
    if (const auto cr = line.rfind('\r'); cr != std::string::npos) {
      line = line.substr(cr + 1);
    }
    if (line.find_first_not_of(" \t") != std::string::npos) {
      last = line;
    }
  }
  return last;
}

std::uintmax_t sizeOf(const std::filesystem::path& path) {
  std::error_code error;
  const auto size = std::filesystem::file_size(path, error);
  return error ? 0 : size;
}

// What a killed attempt left: its output's temporary files ("<id>.h5.partial-<pid>").
void removeLeftovers(const BatchPlan& plan, const BatchJob& job) {
  const std::string prefix = plan.outputOf(job).filename().string() + ".partial-";
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(plan.outputDir, error)) {
    if (entry.path().filename().string().starts_with(prefix)) {
      std::filesystem::remove(entry.path(), error);
    }
  }
}

std::string hostName() {
  char name[256] = {};
  return gethostname(name, sizeof name - 1) == 0 ? name : "";
}

std::string utcNow() {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

}  // namespace

nlohmann::ordered_json readJsonFile(const std::filesystem::path& path) {
  std::ifstream stream(path);
  if (!stream) {
    return nullptr;
  }
  Json json = Json::parse(stream, nullptr, false);
  return json.is_discarded() ? Json(nullptr) : json;
}

JobOutcome recordedOutcome(const BatchPlan& plan, const BatchJob& job) {
  JobOutcome outcome;
  const Json record = readJsonFile(plan.recordOf(job));
  if (!record.is_object()) {
    return outcome;
  }
  const std::string status = record.value("status", "");
  outcome.attempts = record.value("attempts", 0);
  outcome.seconds = record.value("seconds", 0.0);
  outcome.error = record.value("error", "");
  if (status == "done" && std::filesystem::exists(plan.outputOf(job))) {
    outcome.status = JobStatus::Done;
  } else if (status == "failed") {
    outcome.status = JobStatus::Failed;
  }
  return outcome;
}

JobOutcome runJob(const BatchPlan& plan, const BatchJob& job,
                  const std::filesystem::path& executable) {
  std::filesystem::create_directories(plan.outputDir);
  const std::filesystem::path report = plan.outputDir / (job.id + ".report.json");
  const std::filesystem::path log = plan.logOf(job);
  std::vector<std::string> argv = plan.headlessArguments(job, plan.outputOf(job), report);
  argv.insert(argv.begin(), executable.string());
  JobOutcome outcome;
  while (outcome.attempts < kAttempts) {
    ++outcome.attempts;
    removeLeftovers(plan, job);
    std::filesystem::remove(report);
    {
      std::ofstream(log, std::ios::app)
          << "cineflow batch: attempt " << outcome.attempts << " of " << job.id << " on "
          << hostName() << " at " << utcNow() << "\n";
    }
    const std::uintmax_t logStart = sizeOf(log);
    const auto begin = std::chrono::steady_clock::now();
    const acquire::ProcessEnd end = acquire::runProcess(argv, log);
    outcome.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    if (end.succeeded() && std::filesystem::exists(plan.outputOf(job))) {
      outcome.status = JobStatus::Done;
      outcome.error.clear();
      break;
    }
    const std::string message = lastMessage(log, logStart);
    outcome.status = JobStatus::Failed;
    outcome.error = end.describe() + (message.empty() ? "" : ": " + message);
    std::ofstream(log, std::ios::app)
        << "cineflow batch: attempt " << outcome.attempts << " failed (" << outcome.error << ")\n";
  }
  removeLeftovers(plan, job);

  Json record;
  record["schema"] = "cineflow.batch-record/1";
  record["id"] = job.id;
  record["input"] = job.input;
  Json parameters = Json::object();
  for (const auto& [name, value] : job.parameters) {
    parameters[name] = value;
  }
  record["parameters"] = std::move(parameters);
  record["backend"] = plan.backend;
  record["frames"] = plan.frames;
  record["status"] = outcome.status == JobStatus::Done ? "done" : "failed";
  record["attempts"] = outcome.attempts;
  record["seconds"] = outcome.seconds;
  record["error"] = outcome.error;
  record["output"] = plan.outputOf(job).filename().string();
  record["host"] = hostName();
  if (const char* slurmJob = std::getenv("SLURM_ARRAY_JOB_ID")) {
    const char* task = std::getenv("SLURM_ARRAY_TASK_ID");
    record["slurm_task"] = std::string(slurmJob) + "_" + (task != nullptr ? task : "");
  }
  record["finished_utc"] = utcNow();
  record["report"] = readJsonFile(report);
  record["accuracy"] = outcome.status == JobStatus::Done
                           ? accuracyFigures(job.input, plan.outputOf(job), job.dopplerReference)
                           : Json::object();
  base::writeFileAtomically(plan.recordOf(job).string(), record.dump(2) + "\n");
  std::filesystem::remove(report);  // kept inside the record
  return outcome;
}

}  // namespace cineflow::app::batch

#include "run_report.hpp"

#include <nlohmann/json.hpp>

namespace cineflow::app {
namespace {

nlohmann::ordered_json timing(const pipeline::StageStats& stage) {
  return {{"median_ms", stage.medianMs}, {"p99_ms", stage.p99Ms}, {"max_ms", stage.maxMs}};
}

}  // namespace

std::string runReportJson(const pipeline::EngineStats& stats, const RunFacts& facts) {
  nlohmann::ordered_json report;
  report["schema"] = "cineflow.report/1";
  report["input"] = facts.input;
  report["output"] = facts.output;
  report["device"] = facts.device;
  report["frames_processed"] = stats.processed;
  report["frames_dropped"] = stats.dropped;
  report["frames_lost"] = stats.lost;
  report["frames_damaged"] = stats.damaged;
  report["frames_written"] = facts.framesWritten;
  report["seconds"] = facts.seconds;
  report["frames_per_second"] =
      facts.seconds > 0 ? static_cast<double>(stats.processed) / facts.seconds : 0.0;
  nlohmann::ordered_json stages = nlohmann::ordered_json::object();
  for (const pipeline::StageStats& stage : stats.stages) {
    stages[stage.name] = timing(stage);
  }
  report["stages"] = std::move(stages);
  report["frame_median_ms"] = stats.frameMedianMs;
  report["latency"] = timing(stats.latency);
  return report.dump(2) + "\n";
}

}  // namespace cineflow::app

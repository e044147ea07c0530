#include "batch/batch_collect.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

#include "base/text_file.hpp"
#include "batch/batch_job.hpp"

namespace cineflow::app::batch {
namespace {

using Json = nlohmann::ordered_json;

std::string csvField(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) {
    return text;
  }
  std::string quoted = "\"";
  for (const char c : text) {
    quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  }
  return quoted + "\"";
}

std::string number(const Json& value) {
  if (!value.is_number()) {
    return "";
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value.get<double>());
  return text;
}

std::string fixed(double value, int decimals) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

// The figures that say most, for the table: "points within 0.021 mm (4)", "B-mode r >= 0.995",
// "velocity r 0.999".
std::string accuracySummary(const Json& accuracy) {
  std::string text;
  const auto add = [&text](const std::string& part) {
    if (!text.empty()) {
      text += "; ";
    }
    text += part;
  };
  if (accuracy.contains("point_error_max_mm")) {
    add("points within " + fixed(accuracy["point_error_max_mm"].get<double>(), 3) + " mm (" +
        std::to_string(accuracy.value("points", 0)) + ")");
  }
  if (accuracy.contains("bmode_correlation_min")) {
    add("B-mode r >= " + fixed(accuracy["bmode_correlation_min"].get<double>(), 3));
  }
  if (accuracy.contains("velocity_correlation")) {
    add("velocity r " + fixed(accuracy["velocity_correlation"].get<double>(), 4));
  }
  if (accuracy.contains("accuracy_note")) {
    add(accuracy["accuracy_note"].get<std::string>());
  }
  return text;
}

}  // namespace

Collected collectResults(const BatchPlan& plan) {
  std::vector<Json> records;
  std::vector<std::string> stages;   // every stage any report names, in order of appearance
  std::vector<std::string> figures;  // every accuracy figure any record has, likewise
  for (const BatchJob& job : plan.jobs) {
    Json record = readJsonFile(plan.recordOf(job));
    if (record.is_object() && record["report"].is_object()) {
      for (const auto& [stage, times] : record["report"]["stages"].items()) {
        if (std::find(stages.begin(), stages.end(), stage) == stages.end()) {
          stages.push_back(stage);
        }
      }
    }
    if (record.is_object() && record["accuracy"].is_object()) {
      for (const auto& [figure, value] : record["accuracy"].items()) {
        if (std::find(figures.begin(), figures.end(), figure) == figures.end()) {
          figures.push_back(figure);
        }
      }
    }
    records.push_back(std::move(record));
  }

  std::ostringstream csv;
  csv << "id,input,status,attempts";
  for (const std::string& name : plan.parameterNames) {
    csv << ',' << csvField(name);
  }
  csv << ",frames_processed,frames_per_second,seconds,frame_median_ms";
  for (const std::string& stage : stages) {
    csv << ',' << csvField(stage + "_median_ms");
  }
  for (const std::string& figure : figures) {
    csv << ',' << csvField(figure);
  }
  csv << ",host,error\r\n";

  Collected collected;
  int idWidth = 3, optionsWidth = 7;
  for (const BatchJob& job : plan.jobs) {
    idWidth = std::max(idWidth, static_cast<int>(job.id.size()));
    optionsWidth = std::max(optionsWidth, static_cast<int>(job.parameterText().size()));
  }
  std::printf("%-*s  %-*s  %-7s %9s %9s  %s\n", idWidth, "job", optionsWidth, "options", "status",
              "frames/s", "seconds", "accuracy or error");
  for (std::size_t k = 0; k < plan.jobs.size(); ++k) {
    const BatchJob& job = plan.jobs[k];
    const Json& record = records[k];
    const bool known = record.is_object();
    const std::string status = known ? record.value("status", "pending") : "pending";
    collected.done += status == "done";
    collected.failed += status == "failed";
    collected.pending += status != "done" && status != "failed";
    const Json report = known && record["report"].is_object() ? record["report"] : Json::object();
    csv << csvField(job.id) << ',' << csvField(job.input) << ',' << status << ','
        << (known ? std::to_string(record.value("attempts", 0)) : std::string());
    for (const auto& parameter : job.parameters) {
      csv << ',' << csvField(parameter.second);
    }
    csv << ',' << number(report.value("frames_processed", Json())) << ','
        << number(report.value("frames_per_second", Json())) << ','
        << (known ? number(record.value("seconds", Json())) : std::string()) << ','
        << number(report.value("frame_median_ms", Json()));
    for (const std::string& stage : stages) {
      const Json times = report.contains("stages") ? report["stages"].value(stage, Json()) : Json();
      csv << ',' << (times.is_object() ? number(times.value("median_ms", Json())) : "");
    }
    const Json accuracy =
        known && record["accuracy"].is_object() ? record["accuracy"] : Json::object();
    for (const std::string& figure : figures) {
      const Json value = accuracy.value(figure, Json());
      csv << ',' << (value.is_string() ? csvField(value.get<std::string>()) : number(value));
    }
    csv << ',' << csvField(known ? record.value("host", "") : "") << ','
        << csvField(known ? record.value("error", "") : "") << "\r\n";
    const Json fps = report.value("frames_per_second", Json());
    const Json seconds = known ? record.value("seconds", Json()) : Json();
    const std::string remark =
        status == "failed" ? record.value("error", "") : accuracySummary(accuracy);
    std::printf("%-*s  %-*s  %-7s %9s %9s  %s\n", idWidth, job.id.c_str(), optionsWidth,
                job.parameterText().c_str(), status.c_str(),
                fps.is_number() ? fixed(fps.get<double>(), 1).c_str() : "",
                seconds.is_number() ? fixed(seconds.get<double>(), 1).c_str() : "", remark.c_str());
  }
  collected.csvPath = (plan.outputDir / "results.csv").string();
  std::filesystem::create_directories(plan.outputDir);
  base::writeFileAtomically(collected.csvPath, csv.str());
  std::printf("%zu jobs: %zu done, %zu failed, %zu pending; table: %s\n", plan.jobs.size(),
              collected.done, collected.failed, collected.pending, collected.csvPath.c_str());
  return collected;
}

}  // namespace cineflow::app::batch

#include "soak/soak_json.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace cineflow::app {
namespace {

using Json = nlohmann::ordered_json;

Json tallyJson(const SequenceTally& tally, std::uint64_t sequenceEnd) {
  return {{"count", tally.count},
          {"gaps", tally.missingBefore(sequenceEnd)},
          {"out_of_order", tally.disorder}};
}

Json rowJson(const SoakRow& row) {
  return {{"label", row.label},
          {"seconds", row.seconds},
          {"produced", row.produced},
          {"processed", row.processed},
          {"displayed", row.displayed},
          {"recorded", row.recorded},
          {"dropped", row.dropped},
          {"not_recorded", row.recorderDropped},
          {"lost", row.lost},
          {"damaged", row.damaged},
          {"processed_gaps", row.processedGaps},
          {"recorded_gaps", row.recordedGaps},
          {"display_skipped", row.displaySkipped},
          {"ring_occupancy", row.ringOccupancy},
          {"ring_slots", row.ringSlots},
          {"recorder_queue", row.recorderQueue},
          {"recorder_slots", row.recorderSlots},
          {"recorded_bytes", row.recordedBytes},
          {"rss_bytes", row.rssBytes},
          {"threads", row.threads},
          {"frames_per_second", row.framesPerSecond}};
}

}  // namespace

std::string soakReportJson(const SoakFacts& facts, const std::vector<SoakRow>& rows,
                           const std::vector<MemorySample>& memory, const SoakEnd& end,
                           const std::vector<SoakCheck>& checks) {
  Json report;
  report["schema"] = "cineflow.soak/1";
  report["device"] = facts.device;
  report["workload"] = facts.workload;
  report["policy"] = facts.policy;
  report["minutes"] = facts.minutes;
  report["overload"] = facts.overload;
  report["calibration"] = {{"seconds", facts.calibrationSeconds},
                           {"frames", facts.calibrationFrames},
                           {"frames_per_second", facts.calibratedRateHz}};
  report["source_rate_hz"] = facts.sourceRateHz;
  report["recording"] = {{"compression", facts.compression},
                         {"raw_frame_bytes", facts.rawFrameBytes},
                         {"bytes_on_disk", rows.empty() ? 0 : rows.back().recordedBytes}};
  report["image_bytes"] = facts.imageBytes;
  Json series = Json::array();
  for (const MemorySample& sample : memory) {
    series.push_back({sample.seconds, sample.rssBytes, sample.anonBytes, sample.fileBytes});
  }
  report["memory"] = {{"baseline_seconds", facts.memory.baselineSeconds},
                      {"allocator_bytes_per_thread", facts.memory.bytesPerThread},
                      {"index_bytes_per_frame", facts.memory.indexBytesPerFrame},
                      {"index_cap_bytes", facts.memory.indexCapBytes},
                      {"each_second", std::move(series)},
                      {"each_second_columns", {"seconds", "VmRSS", "RssAnon", "RssFile"}}};
  Json rowList = Json::array();
  for (const SoakRow& row : rows) {
    rowList.push_back(rowJson(row));
  }
  report["rows"] = std::move(rowList);
  report["end"] = {{"engine_failed", end.engineFailed},
                   {"engine_error", end.engineError},
                   {"recorder_error", end.recorderError},
                   {"produced", end.produced},
                   {"processed", end.processed},
                   {"dropped", end.dropped},
                   {"lost", end.lost},
                   {"damaged", end.damaged},
                   {"sequence_end", end.sequenceEnd},
                   {"observed", tallyJson(end.observed, end.sequenceEnd)},
                   {"displayed", tallyJson(end.displayed, end.sequenceEnd)},
                   {"recorder_offered", end.recorderOffered},
                   {"recorder_accepted", end.recorderAccepted},
                   {"recorded", end.recorded},
                   {"not_recorded", end.recorderDropped},
                   {"file_frames", end.fileFrames},
                   {"file", tallyJson(end.file, end.sequenceEnd)}};
  Json checkList = Json::array();
  for (const SoakCheck& check : checks) {
    checkList.push_back({{"name", check.name},
                         {"passed", check.passed},
                         {"judged", check.judged},
                         {"detail", check.detail}});
  }
  report["checks"] = std::move(checkList);
  report["interrupted"] = facts.interrupted;
  report["passed"] = !facts.interrupted && std::all_of(checks.begin(), checks.end(),
                                                       [](const SoakCheck& c) { return c.passed; });
  return report.dump(2) + "\n";
}

}  // namespace cineflow::app

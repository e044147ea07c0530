#include "soak/soak_report.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace cineflow::app {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

std::string text(std::uint64_t value) {
  return std::to_string(value);
}

SoakCheck equal(std::string name, const std::string& left, std::uint64_t a,
                const std::string& right, std::uint64_t b) {
  return {std::move(name), a == b,
          left + " " + text(a) + (a == b ? " == " : " != ") + right + " " + text(b)};
}

SoakCheck zero(std::string name, const std::string& what, std::uint64_t value) {
  return {std::move(name), value == 0,
          what + " " + text(value) + (value == 0 ? "" : " (expected 0)")};
}

}  // namespace

void SequenceTally::see(std::uint64_t sequence) {
  if (count == 0) {
    gaps = sequence;  // frames 0 .. sequence - 1 never arrived
  } else if (sequence <= last) {
    ++disorder;
    ++count;
    return;  // `last` stays the newest, so a late frame does not hide later gaps
  } else {
    gaps += sequence - last - 1;
  }
  last = sequence;
  ++count;
}

std::uint64_t SequenceTally::missingBefore(std::uint64_t end) const {
  if (count == 0) {
    return end;
  }
  return gaps + (end > last + 1 ? end - last - 1 : 0);
}

std::vector<SoakCheck> checkCounts(const SoakEnd& end, pipeline::OverflowPolicy policy) {
  std::vector<SoakCheck> checks;
  checks.push_back({"engine", !end.engineFailed,
                    end.engineFailed ? "the engine failed: " + end.engineError : "ran to the end"});
  checks.push_back({"recorder", end.recorderError.empty(),
                    end.recorderError.empty() ? "no write error"
                                              : "the recording stopped: " + end.recorderError});
  checks.push_back(equal("observer saw every image", "observed", end.observed.count, "processed",
                         end.processed));
  checks.push_back(equal("recorder wrote what it accepted", "written", end.recorded, "accepted",
                         end.recorderAccepted));
  checks.push_back(equal("recording holds every frame written", "frames in the file",
                         end.fileFrames, "written", end.recorded));
  checks.push_back(equal("every recorded frame has its sequence number", "/sequence entries",
                         end.file.count, "frames in the file", end.fileFrames));
  checks.push_back(equal("recorder counts add up", "written + not recorded",
                         end.recorded + end.recorderDropped, "offered", end.recorderOffered));
  checks.push_back(equal("recorder was offered every admitted frame", "offered",
                         end.recorderOffered, "produced - dropped - damaged",
                         end.produced - end.dropped - end.damaged));
  checks.push_back(zero("processed in order", "processed out of order", end.observed.disorder));
  checks.push_back(zero("recorded in order", "recorded out of order", end.file.disorder));
  checks.push_back(zero("displayed in order", "displayed out of order", end.displayed.disorder));
  checks.push_back(
      {"display fed", end.displayed.count > 0 && end.displayed.count <= end.processed,
       "displayed " + text(end.displayed.count) + " of " + text(end.processed) + " processed"});
  const std::uint64_t processedMissing = end.observed.missingBefore(end.sequenceEnd);
  const std::uint64_t recordedMissing = end.file.missingBefore(end.sequenceEnd);
  if (policy == pipeline::OverflowPolicy::Block) {
    checks.push_back(zero("nothing dropped", "dropped at the host ring", end.dropped));
    checks.push_back(zero("nothing lost", "lost by the source", end.lost));
    checks.push_back(zero("nothing damaged", "damaged", end.damaged));
    checks.push_back(zero("recorder dropped nothing", "not recorded", end.recorderDropped));
    checks.push_back(
        equal("processed == produced", "processed", end.processed, "produced", end.produced));
    checks.push_back(
        equal("recorded == produced", "recorded", end.recorded, "produced", end.produced));
    checks.push_back(zero("processed gap-free", "processed gaps", processedMissing));
    checks.push_back(zero("recorded gap-free", "recorded gaps", recordedMissing));
  } else {
    checks.push_back(equal("produced == processed + dropped + damaged", "produced", end.produced,
                           "processed + dropped + damaged",
                           end.processed + end.dropped + end.damaged));
    checks.push_back(equal("processed gaps == dropped + damaged + lost", "processed gaps",
                           processedMissing, "dropped + damaged + lost",
                           end.dropped + end.damaged + end.lost));
    checks.push_back(equal("recorded gaps == dropped + damaged + lost + not recorded",
                           "recorded gaps", recordedMissing,
                           "dropped + damaged + lost + not recorded",
                           end.dropped + end.damaged + end.lost + end.recorderDropped));
  }
  return checks;
}

double memoryBaselineSeconds(double runSeconds) {
  return runSeconds >= 120 ? 60 : runSeconds / 2;
}

SoakCheck checkMemory(const std::vector<SoakRow>& rows, const std::vector<MemorySample>& series,
                      const MemoryRule& rule) {
  const SoakRow* baseline = nullptr;
  const SoakRow* last = nullptr;
  for (const SoakRow& row : rows) {
    if (row.label == "end") {
      continue;  // after the engine stopped: buffers already released
    }
    if (baseline == nullptr && row.seconds >= rule.baselineSeconds) {
      baseline = &row;
    }
    last = &row;
  }
  if (baseline == nullptr || last == nullptr) {
    return {"memory", false, "no sample at or after the baseline point"};
  }
  const std::uint64_t allocator =
      rule.bytesPerThread * static_cast<std::uint64_t>(baseline->threads);
  const std::uint64_t framesSince = last->recorded - baseline->recorded;
  const std::uint64_t index = std::min(rule.indexCapBytes, rule.indexBytesPerFrame * framesSince);
  const std::uint64_t limit = baseline->rssBytes + allocator + index;
  const bool passed = last->rssBytes <= limit;
  std::uint64_t peak = last->rssBytes;
  for (const MemorySample& sample : series) {
    if (sample.seconds >= baseline->seconds) {
      peak = std::max(peak, sample.rssBytes);
    }
  }
  char detail[400];
  std::snprintf(
      detail, sizeof detail,
      "RSS %.2f MiB at minute %s %s %.2f MiB at minute %s + %.2f MiB allocator (%d "
      "threads x %llu KiB) + %.2f MiB recording index (%llu frames x %llu B, at most "
      "%.0f MiB) = %.2f MiB; grew %+.2f MiB, highest since %.2f MiB",
      static_cast<double>(last->rssBytes) / kMiB, last->label.c_str(), passed ? "<=" : ">",
      static_cast<double>(baseline->rssBytes) / kMiB, baseline->label.c_str(),
      static_cast<double>(allocator) / kMiB, baseline->threads,
      static_cast<unsigned long long>(rule.bytesPerThread / 1024),
      static_cast<double>(index) / kMiB, static_cast<unsigned long long>(framesSince),
      static_cast<unsigned long long>(rule.indexBytesPerFrame),
      static_cast<double>(rule.indexCapBytes) / kMiB, static_cast<double>(limit) / kMiB,
      (static_cast<double>(last->rssBytes) - static_cast<double>(baseline->rssBytes)) / kMiB,
      static_cast<double>(peak) / kMiB);
  return {"memory", passed, detail};
}

std::string tableHeader() {
  char line[256];
  std::snprintf(line, sizeof line, "%6s %9s %9s %9s %9s %8s %8s %5s %9s %9s %7s %7s %7s %8s %8s",
                "minute", "produced", "processed", "displayed", "recorded", "dropped", "rec-drop",
                "lost", "gaps-proc", "gaps-rec", "skipped", "ring", "rec-q", "frames/s", "RSS MiB");
  return line;
}

std::string tableLine(const SoakRow& row) {
  char line[256];
  const std::string ring = std::to_string(row.ringOccupancy) + "/" + std::to_string(row.ringSlots);
  const std::string queue = text(row.recorderQueue) + "/" + std::to_string(row.recorderSlots);
  std::snprintf(
      line, sizeof line,
      "%6s %9llu %9llu %9llu %9llu %8llu %8llu %5llu %9llu %9llu %7llu %7s %7s %8.1f %8.1f",
      row.label.c_str(), static_cast<unsigned long long>(row.produced),
      static_cast<unsigned long long>(row.processed),
      static_cast<unsigned long long>(row.displayed), static_cast<unsigned long long>(row.recorded),
      static_cast<unsigned long long>(row.dropped),
      static_cast<unsigned long long>(row.recorderDropped),
      static_cast<unsigned long long>(row.lost), static_cast<unsigned long long>(row.processedGaps),
      static_cast<unsigned long long>(row.recordedGaps),
      static_cast<unsigned long long>(row.displaySkipped), ring.c_str(), queue.c_str(),
      row.framesPerSecond, static_cast<double>(row.rssBytes) / kMiB);
  return line;
}

ProcessStatus parseProcessStatus(const std::string& status) {
  ProcessStatus parsed;
  std::istringstream lines(status);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string name;
    fields >> name;
    if (name == "VmRSS:" || name == "RssAnon:" || name == "RssFile:") {
      std::uint64_t kib = 0;
      std::string unit;
      if (fields >> kib >> unit && unit == "kB") {
        (name == "VmRSS:" ? parsed.rssBytes
                          : (name == "RssAnon:" ? parsed.anonBytes : parsed.fileBytes)) =
            kib * 1024;
      }
    } else if (name == "Threads:") {
      fields >> parsed.threads;
    }
  }
  return parsed;
}

}  // namespace cineflow::app

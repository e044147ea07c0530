#pragma once
// `cineflow soak --report`: the run as JSON (schema cineflow.soak/1).

#include <string>
#include <vector>

#include "soak/soak_report.hpp"

namespace cineflow::app {

struct SoakFacts {
  std::string device;
  std::string workload;
  std::string policy;
  std::string compression;
  double minutes = 0;
  double overload = 0;
  double calibrationSeconds = 0;        // the timed window (0: --rate given)
  std::uint64_t calibrationFrames = 0;  // processed in it
  double calibratedRateHz = 0;          // the sustained rate taken
  double sourceRateHz = 0;              // overload x that
  std::uint64_t rawFrameBytes = 0;
  std::uint64_t imageBytes = 0;
  MemoryRule memory;
  bool interrupted = false;
};

std::string soakReportJson(const SoakFacts& facts, const std::vector<SoakRow>& rows,
                           const std::vector<MemorySample>& memory, const SoakEnd& end,
                           const std::vector<SoakCheck>& checks);

}  // namespace cineflow::app

#pragma once
// A headless run's report as JSON (--report FILE.json, schema cineflow.report/1): what ran
// (input, backend, device) and what it measured (frames processed and dropped, frames per second,
// each stage's median / p99 / max time, the frame's median, the latency). `cineflow batch` keeps
// one per job in its record; a script reads it without parsing the printed report.

#include <cstdint>
#include <string>

#include "pipeline/engine_types.hpp"

namespace cineflow::app {

struct RunFacts {
  std::string input, output, device;
  double seconds = 0;               // engine start to finish, wall clock
  std::uint64_t framesWritten = 0;  // to --output
};

std::string runReportJson(const pipeline::EngineStats& stats, const RunFacts& facts);

}  // namespace cineflow::app

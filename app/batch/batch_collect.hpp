#pragma once
// Merges a batch plan's job records (batch_job.hpp) into one table: <output>/results.csv (one row
// per job: the recording, its options, the status and attempts, frames/s, the frame's and every
// stage's median time, the error; RFC 4180 quoting, so a spreadsheet opens it) and a summary
// printed as a table. Jobs without a record yet are listed as pending.

#include <cstddef>
#include <string>

#include "batch/batch_plan.hpp"

namespace cineflow::app::batch {

struct Collected {
  std::size_t done = 0, failed = 0, pending = 0;
  std::string csvPath;
};

// Writes the CSV (atomically) and prints the summary on stdout.
Collected collectResults(const BatchPlan& plan);

}  // namespace cineflow::app::batch

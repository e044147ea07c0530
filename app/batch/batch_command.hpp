#pragma once
// `cineflow batch PLAN.json ...`: a parameter study over many recordings (batch_plan.hpp), run
// here on a pool of processes (batch_local.hpp) or submitted as a Slurm job array
// (batch_slurm.hpp), merged into one table (batch_collect.hpp).

namespace cineflow::app {

// argv[0] is the program, argv[1] is "batch". Returns the process exit code: 0 when every job is
// done, 1 when one failed or a run could not start, 2 for a bad command line or plan.
int runBatch(int argc, char** argv);

}  // namespace cineflow::app

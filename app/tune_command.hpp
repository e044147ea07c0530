#pragma once
// `cineflow tune`: measures every variant of every tunable stage (tune/tuner.hpp) for a workload
// on this machine, with a progress bar, prints the table, remembers the choice in the tuning
// history, and can export the chosen variants as a table for reproducible runs.

namespace cineflow::app {

// argv[0] is the program, argv[1] is "tune". Returns the process exit code.
int runTune(int argc, char** argv);

}  // namespace cineflow::app

#pragma once
// `cineflow soak`: the engine under sustained overload for minutes, with the display and the raw
// recorder attached; per-minute figures, count identities and memory checked
// (soak/soak_report.hpp).

namespace cineflow::app {

// argv[0] is the program, argv[1] is "soak". Returns the process exit code: 0 every goal held,
// 1 one failed (or the run could not be made), 2 a bad command line.
int runSoak(int argc, char** argv);

}  // namespace cineflow::app

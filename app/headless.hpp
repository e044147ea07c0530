#pragma once
// Headless mode: source -> engine -> cineflow.bmode/1 file, with a timing report on stdout.

#include "cli_options.hpp"

namespace cineflow::app {

// Returns the process exit code; errors are reported on stderr.
int runHeadless(const CliOptions& options);

}  // namespace cineflow::app

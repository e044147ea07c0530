#pragma once
// Finds a running process by its command line (/proc), for tests that kill a job mid-run.

#include <string>

#include <sys/types.h>

namespace cineflow::test {

// The pid of a running `cineflow --headless` whose command line (arguments joined by spaces)
// contains `needle`; 0 when there is none.
pid_t headlessProcessMentioning(const std::string& needle);

}  // namespace cineflow::test

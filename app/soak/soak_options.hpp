#pragma once
// `cineflow soak`'s command line: its options, their checks and the usage text.

#include <string>

#include "compute/backend.hpp"
#include "pipeline/engine_types.hpp"
#include "store/raw_recorder.hpp"

namespace cineflow::app {

struct SoakOptions {
  bool help = false;
  compute::BackendRequest backend = compute::BackendRequest::Auto;
  double minutes = 10;  // > 0; fractions for quick checks
  double overload = 2;  // the source's rate over the calibrated one
  pipeline::OverflowPolicy policy = pipeline::OverflowPolicy::Block;
  std::string reportPath;      // the figures as JSON (cineflow.soak/1); empty: none
  std::string recordDir;       // where the temporary recording folder goes; empty: the system's
  bool keepRecording = false;  // leave the recording folder in place (its path is printed)
  store::RecordCompression compression = store::RecordCompression::BitshuffleLz4;
  double calibrationSeconds = 3;  // timed unthrottled run (after a one-second warm-up)
  double rateHz = 0;              // > 0: take this as the sustained rate instead of calibrating
  double displayHz = 60;          // the display consumer's polling rate
};

// argv[0] is the program, argv[1] "soak". Throws std::invalid_argument for a bad command line.
SoakOptions parseSoakOptions(int argc, char** argv);
const char* soakUsage();

}  // namespace cineflow::app

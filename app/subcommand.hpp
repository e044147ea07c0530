#pragma once
// What `cineflow bench` and `cineflow tune` share around their own work: the command line read
// (a bad one exits 2), --help, the backend (a fallback to the CPU is said on stderr), a runtime
// error reported (exit 1); and the tuner they run with (tune/tuner_setup.hpp), its history
// saved afterwards, problems said on stderr.

#include <cstdio>
#include <exception>
#include <iostream>
#include <memory>
#include <string>

#include "compute/backend.hpp"
#include "tune/tuner_setup.hpp"

namespace cineflow::app {

// `Options` has `bool help` and `compute::BackendRequest backend`; `parse(argc, argv)` throws
// std::invalid_argument for a bad command line; `body(options, backend)` returns the exit code.
template <class Options, class Parse, class Body>
int runSubcommand(int argc, char** argv, Parse parse, const char* usage, Body body) {
  Options options;
  try {
    options = parse(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "cineflow: " << e.what() << '\n';
    return 2;
  }
  if (options.help) {
    std::fputs(usage, stdout);
    return 0;
  }
  try {
    std::string fallback;
    auto backend = compute::createBackend(options.backend, &fallback);
    if (!fallback.empty()) {
      std::cerr << "cineflow: " << fallback << '\n';
    }
    return body(options, *backend);
  } catch (const std::exception& e) {
    std::cerr << "\ncineflow: " << e.what() << '\n';
    return 1;
  }
}

// The tuner for `backend` with `pins`; a history file it could not use is said on stderr.
// Without `measure` (--no-tune) only the pins apply: null when there are none.
inline std::shared_ptr<tune::Tuner> startTuning(const compute::Backend& backend,
                                                tune::VariantPins pins, bool measure = true) {
  if (!measure) {
    return tune::makePinsOnlyTuner(backend, std::move(pins));
  }
  std::string message;
  auto tuner = tune::makeTuner(backend, std::move(pins), message);
  if (!message.empty()) {
    std::cerr << "cineflow: " << message << '\n';
  }
  return tuner;
}

// Saves what `tuner` measured (nothing when null); a failure is said on stderr.
inline void finishTuning(tune::Tuner* tuner) {
  if (tuner == nullptr) {
    return;
  }
  if (const std::string problem = tune::saveTuning(*tuner); !problem.empty()) {
    std::cerr << "cineflow: " << problem << '\n';
  }
}

}  // namespace cineflow::app

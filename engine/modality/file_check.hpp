#pragma once
// Reading a file from outside in a separate process before Cineflow opens it.
//
// HDF5 and matio trust the lengths and addresses in a file's metadata: on a damaged file they can
// crash or loop (tests/fuzz/known_library_defects.txt lists what fuzzing found in Debian 12's
// HDF5 1.10.8 and matio), and no check of Cineflow's own can stop that inside the library. So when
// the checks are enabled (the `cineflow` program enables them at start), openSource() first has a
// child process, `cineflow check-file`, open the file with the same reader: a recording's metadata
// and its first and last frames, a MATLAB file's variable headers. A child that crashes or runs
// past its time takes only itself down, and the file is refused with a message that says so; a
// child that refuses the file passes on the reader's own message. Damage deeper in a recording's
// frames is still read in Cineflow's own process (each frame's stored bytes are checked where the
// recording holds checksums).
//
// Costs one process start per file opened (tens of milliseconds; README, Robustness). Test
// programs, which cannot run `cineflow check-file`, leave the checks off and open files directly.

#include <chrono>
#include <filesystem>
#include <string>

#include "acquire/frame_source.hpp"

namespace cineflow::acquire {

// From now on, files are checked by running `program check-file ...` (`program` is Cineflow's
// own executable), allowing each check `timeout`. An empty `program` turns the checks off.
void enableFileChecks(std::filesystem::path program,
                      std::chrono::milliseconds timeout = std::chrono::seconds(30));

// When enabled: checks `spec` (the path of a recording or MATLAB file) in a child process. Returns
// when the child read it; throws SourceError when the child crashed, ran past its time, or refused
// the file (its message). When the checks are off, or the child cannot be started at all, returns
// at once: the file is opened as before. `progress` hears "checking ..." about every 100 ms and may
// throw to abandon the check (the child is then killed).
void checkFileInChildProcess(const std::string& spec, const ProgressFn& progress = {});

// What the child runs: opens `spec` with the reader openSource() would use and reads its first
// and last frames (a MATLAB file: its variable headers). Throws SourceError with the reader's
// message. A frame whose stored bytes are damaged does not fail the check (the engine skips or
// stops at it, as the operator chose).
void readFileForCheck(const std::string& spec);

}  // namespace cineflow::acquire

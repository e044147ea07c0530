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
// Costs one process start per file opened (about 0.1 s for a recording; docs/robustness.md), and
// never twice for the same file: a check the file passed is remembered in the cache folder
// (base/cache_directory.hpp, "file-checks.txt"), keyed by the file's device,
// inode, size and modification and change times and by the checking program's own size and time,
// so that a file changed in any way, or a rebuilt Cineflow, checks again. A caller that knows
// early which file it will open starts the check ahead (FileCheckAhead) and sets up meanwhile.
// Test programs, which cannot run `cineflow check-file`, leave the checks off and open files
// directly.

#include <chrono>
#include <filesystem>
#include <memory>
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

// Starts the check of `spec` now, on a thread of its own ("cf-check"), so that it runs while the
// caller sets up what does not need the file (the backend: on CUDA the device's context; the
// tuner); the next checkFileInChildProcess(spec) takes its result instead of starting another
// child, still telling its `progress` while it waits. Destroying the handle first abandons the
// check (the child is killed) and leaves the next checkFileInChildProcess(spec) to check anew.
// Does nothing when the checks are off, `spec` is not a file openSource() reads from outside (a
// simulator, a plugin, a stream), or the file passed a check already. Create and destroy it on the
// thread that opens the source.
class FileCheckAhead {
 public:
  explicit FileCheckAhead(const std::string& spec);
  ~FileCheckAhead();
  FileCheckAhead(const FileCheckAhead&) = delete;
  FileCheckAhead& operator=(const FileCheckAhead&) = delete;

  struct Pending;  // file_check.cpp

 private:
  std::shared_ptr<Pending> pending_;
};

// What the child calls first: it exists to be the process a damaged file crashes. Freed and new
// heap blocks are filled with a pattern (glibc's M_PERTURB), so that a reader following a stale
// or uninitialised pointer is more likely to meet the pattern and fault here than to read on by
// luck (the program that asked then reads the file itself). Whether a given process faults still
// depends on its memory: on the crashing recording of tests/data/fuzz the check faulted in 297
// of 300 runs so (the others refused the file cleanly), against 29 of 30 without.
void prepareCheckProcess();

// What the child runs: opens `spec` with the reader openSource() would use and reads its first
// and last frames (a MATLAB file: its variable headers). Throws SourceError with the reader's
// message. A frame whose stored bytes are damaged does not fail the check (the engine skips or
// stops at it, as the operator chose).
void readFileForCheck(const std::string& spec);

}  // namespace cineflow::acquire

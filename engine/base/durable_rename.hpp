#pragma once
// Giving a finished temporary file its final name so that the name survives a power cut with the
// data under it (docs/file-formats.md): fsync the file, rename it onto the final path, fsync the
// folder. Without the first fsync the rename can reach the disk before the data, and a crash leaves
// an empty or partial file under the final name; without the last, the rename itself can be lost.
// Every writer that stages a file (StagedH5File, writeFileAtomically) publishes it through here.
//
// Threading: publishFile() may run on any thread. The FileSystemCalls override is process-wide
// and meant for tests: install it while no save runs, one override at a time.

#include <filesystem>
#include <optional>
#include <string>

namespace cineflow::base {

// "<final>.partial-<pid>", beside the final file (a rename never crosses file systems), unique
// per process so that two programs saving the same name do not write into one temporary.
std::filesystem::path temporaryPathFor(const std::filesystem::path& finalPath);

// Removes the "<name>.partial-<pid>" files in `folder` whose process is gone on this machine (a
// run that was killed, or lost its power, before it could publish or remove its temporary):
// every writer that stages a file calls it for its folder first. A file whose process still
// exists (or whose pid was reused) stays. Returns how many were removed; never throws.
std::size_t removeStalePartials(const std::filesystem::path& folder) noexcept;

// What publishFile() asks of the file system. Each call returns 0 or an errno value. The base
// class makes the real calls; a test derives from it to record the order of the calls or to fail
// one of them.
class FileSystemCalls {
 public:
  virtual ~FileSystemCalls() = default;
  virtual int syncFile(const std::filesystem::path& file);  // open, fsync, close
  virtual int rename(const std::filesystem::path& from, const std::filesystem::path& to);
  virtual int syncDirectory(const std::filesystem::path& directory);
};

// Routes every publishFile() in the process through `calls` while it lives.
class ScopedFileSystemCalls {
 public:
  explicit ScopedFileSystemCalls(FileSystemCalls& calls);
  ~ScopedFileSystemCalls();
  ScopedFileSystemCalls(const ScopedFileSystemCalls&) = delete;
  ScopedFileSystemCalls& operator=(const ScopedFileSystemCalls&) = delete;

 private:
  FileSystemCalls* previous_;
};

// Why publishing failed: the operation ("sync <file>", "rename <file>", "sync folder <dir>") and
// the system's reason.
struct PublishFailure {
  std::string operation;
  std::string reason;
};

// `temporary` must be complete and closed. Syncs it, renames it onto `finalPath` (replacing a
// file there) and syncs the folder. On failure nothing new is left under `finalPath`: when the
// folder cannot be synced after the rename, the renamed file is removed again, since the rename
// may not survive a crash. The temporary is left for the caller to remove. Never throws.
std::optional<PublishFailure> publishFile(const std::filesystem::path& temporary,
                                          const std::filesystem::path& finalPath) noexcept;

}  // namespace cineflow::base

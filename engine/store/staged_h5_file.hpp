#pragma once
// An HDF5 file written under a temporary name and renamed onto its final path only when complete
// (docs/file-formats.md): "<final>.partial-<pid>" in the same directory, published durably (synced
// before the rename, its folder after: store/durable_rename.hpp). Until commit() succeeds, and
// whenever anything fails, nothing exists under the final name; destroying an uncommitted file
// removes the temporary. Shared by every writer (BmodeWriter, VolumeWriter). Internal to the
// store: only .cpp files include it (HDF5 is a private dependency).
//
// Threading: one thread at a time.

#include <filesystem>
#include <initializer_list>
#include <string>
#include <utility>

#include "store/hdf5_handle.hpp"
#include "store/store_error.hpp"

namespace cineflow::store {

// Why a file cannot be created at `path`: its folder is missing, is not a folder or is not
// writable ("directory /x does not exist"); empty when none of these.
std::string folderProblem(const std::filesystem::path& path);

class StagedH5File {
 public:
  // Checks the directory (exists, is one, is writable: clear reasons for the usual mistakes) and
  // creates the temporary file. Throws StoreError "cannot save <final>: create: <reason>".
  explicit StagedH5File(std::filesystem::path finalPath);
  ~StagedH5File();  // discard() unless committed; never throws
  StagedH5File(const StagedH5File&) = delete;
  StagedH5File& operator=(const StagedH5File&) = delete;

  hid_t get() const { return file_.get(); }
  bool isOpen() const { return state_ == State::Open; }
  bool isCommitted() const { return state_ == State::Committed; }
  const std::filesystem::path& finalPath() const { return finalPath_; }
  const std::filesystem::path& temporaryPath() const { return temporaryPath_; }

  // Discards the file and throws StoreError "cannot save <final>: <operation>: <reason>".
  [[noreturn]] void fail(const std::string& operation, const std::string& reason);
  // Throws StoreError unless the file is open: "<operation>: the writer is finished / spoiled".
  void requireOpen(const std::string& operation) const;
  // Flushes, closes `objects` (each before the file, or H5Fclose would defer their errors, such
  // as a full disk, to the last close), closes the file, then syncs it, renames it onto the final
  // path (replacing a file there) and syncs the folder. On failure discards everything and throws
  // StoreError ("... : sync <temporary>: <reason>" and the like).
  void commit(std::initializer_list<std::pair<H5Dataset*, const char*>> objects);
  // Closes the file and removes the temporary; safe to call repeatedly. A writer closes its own
  // datasets first.
  void discard() noexcept;

 private:
  enum class State { Open, Failed, Committed };
  std::filesystem::path finalPath_;
  std::filesystem::path temporaryPath_;
  H5File file_;
  State state_ = State::Open;
};

}  // namespace cineflow::store

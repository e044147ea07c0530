#include "store/staged_h5_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include "base/durable_rename.hpp"

namespace cineflow::store {

std::string folderProblem(const std::filesystem::path& path) {
  // Clear reasons for the usual mistakes; HDF5's own message for them is long and indirect.
  const std::filesystem::path directory =
      path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  std::error_code ec;
  if (!std::filesystem::is_directory(directory, ec)) {
    return std::filesystem::exists(directory, ec)
               ? directory.string() + " is not a directory"
               : "directory " + directory.string() + " does not exist";
  }
  if (::access(directory.c_str(), W_OK) != 0) {
    return "directory " + directory.string() + " is not writable (" + std::strerror(errno) + ")";
  }
  return {};
}

StagedH5File::StagedH5File(std::filesystem::path finalPath)
    : finalPath_(std::move(finalPath)), temporaryPath_(base::temporaryPathFor(finalPath_)) {
  if (finalPath_.empty() || !finalPath_.has_filename()) {
    state_ = State::Failed;
    throw StoreError("cannot save " + finalPath_.string() + ": create: the path names no file");
  }
  if (const std::string problem = folderProblem(finalPath_); !problem.empty()) {
    state_ = State::Failed;
    throw StoreError("cannot save " + finalPath_.string() + ": create: " + problem);
  }
  if (std::error_code ignored; std::filesystem::is_directory(finalPath_, ignored)) {
    state_ = State::Failed;
    throw StoreError("cannot save " + finalPath_.string() +
                     ": create: it is a folder; name a file in it instead");
  }
  base::removeStalePartials(finalPath_.parent_path());
  file_ = H5File(H5Fcreate(temporaryPath_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
  if (!file_) {
    const std::string stack = errorStackText();
    // Remove nothing here: the temporary name may belong to something we did not create.
    state_ = State::Failed;
    throw StoreError("cannot save " + finalPath_.string() + ": create temporary file " +
                     temporaryPath_.string() + " failed (HDF5: " + stack + ")");
  }
}

StagedH5File::~StagedH5File() {
  if (state_ != State::Committed) {
    ErrorScope scope;
    discard();
  }
}

void StagedH5File::fail(const std::string& operation, const std::string& reason) {
  discard();
  throw StoreError("cannot save " + finalPath_.string() + ": " + operation + ": " + reason);
}

void StagedH5File::requireOpen(const std::string& operation) const {
  if (state_ != State::Open) {
    throw StoreError("cannot save " + finalPath_.string() + ": " + operation + ": the writer is " +
                     (state_ == State::Committed ? "finished" : "spoiled by an earlier error"));
  }
}

void StagedH5File::commit(std::initializer_list<std::pair<H5Dataset*, const char*>> objects) {
  requireOpen("finish");
  try {
    checkStatus(H5Fflush(file_.get(), H5F_SCOPE_GLOBAL), "flush");
  } catch (const Hdf5Error& e) {
    fail("finish", e.what());
  }
  // Each close clears HDF5's error stack, so the first failure's reason is kept as it happens.
  std::string reason;
  for (const auto& [handle, name] : objects) {
    if (!handle->close() && reason.empty()) {
      reason = std::string(name) + ": " + errorStackText();
    }
  }
  if (!file_.close() && reason.empty()) {
    reason = "file: " + errorStackText();
  }
  if (!reason.empty()) {
    fail("close", reason);
  }
  if (const auto failure = base::publishFile(temporaryPath_, finalPath_)) {
    fail(failure->operation, failure->reason);
  }
  state_ = State::Committed;
}

void StagedH5File::discard() noexcept {
  if (state_ == State::Committed) {
    return;
  }
  state_ = State::Failed;
  file_.reset();
  H5Eclear2(H5E_DEFAULT);
  std::error_code ignored;
  // After a failed close HDF5 keeps its descriptor open, which would hold the removed file's
  // blocks until exit; emptying the file first gives a full disk its space back now.
  if (std::filesystem::is_regular_file(temporaryPath_, ignored)) {
    std::filesystem::resize_file(temporaryPath_, 0, ignored);
  }
  std::filesystem::remove(temporaryPath_, ignored);
}

}  // namespace cineflow::store

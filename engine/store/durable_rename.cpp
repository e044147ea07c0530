#include "store/durable_rename.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <string>
#include <system_error>

namespace cineflow::store {
namespace {

FileSystemCalls& realCalls() {
  static FileSystemCalls calls;
  return calls;
}

std::atomic<FileSystemCalls*> installedCalls{nullptr};

FileSystemCalls& currentCalls() {
  FileSystemCalls* calls = installedCalls.load();
  return calls != nullptr ? *calls : realCalls();
}

// open(path, flags), fsync, close; 0 or the first errno.
int syncPath(const std::filesystem::path& path, int flags) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) {
    return errno;
  }
  int error = ::fsync(fd) == 0 ? 0 : errno;
  if (::close(fd) != 0 && error == 0) {
    error = errno;
  }
  return error;
}

std::string reasonFor(int error) {
  return std::generic_category().message(error);
}

std::filesystem::path folderOf(const std::filesystem::path& path) {
  return path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
}

}  // namespace

std::filesystem::path temporaryPathFor(const std::filesystem::path& finalPath) {
  std::filesystem::path temporary = finalPath;
  temporary += ".partial-" + std::to_string(::getpid());
  return temporary;
}

int FileSystemCalls::syncFile(const std::filesystem::path& file) {
  return syncPath(file, O_RDONLY);
}

int FileSystemCalls::rename(const std::filesystem::path& from, const std::filesystem::path& to) {
  return std::rename(from.c_str(), to.c_str()) == 0 ? 0 : errno;
}

int FileSystemCalls::syncDirectory(const std::filesystem::path& directory) {
  const int error = syncPath(directory, O_RDONLY | O_DIRECTORY);
  // Some file systems cannot sync a folder at all; there the rename is as durable as it gets.
  return error == EINVAL || error == ENOTSUP ? 0 : error;
}

ScopedFileSystemCalls::ScopedFileSystemCalls(FileSystemCalls& calls)
    : previous_(installedCalls.exchange(&calls)) {}

ScopedFileSystemCalls::~ScopedFileSystemCalls() {
  installedCalls.store(previous_);
}

std::optional<PublishFailure> publishFile(const std::filesystem::path& temporary,
                                          const std::filesystem::path& finalPath) noexcept {
  try {
    FileSystemCalls& calls = currentCalls();
    if (const int error = calls.syncFile(temporary); error != 0) {
      return PublishFailure{"sync " + temporary.string(), reasonFor(error)};
    }
    if (const int error = calls.rename(temporary, finalPath); error != 0) {
      return PublishFailure{"rename " + temporary.string(), reasonFor(error)};
    }
    const std::filesystem::path folder = folderOf(finalPath);
    if (const int error = calls.syncDirectory(folder); error != 0) {
      std::error_code ignored;
      std::filesystem::remove(finalPath, ignored);
      return PublishFailure{"sync folder " + folder.string(), reasonFor(error)};
    }
    return std::nullopt;
  } catch (const std::exception& e) {  // std::bad_alloc from the paths and messages
    return PublishFailure{"publish " + finalPath.string(), e.what()};
  }
}

}  // namespace cineflow::store

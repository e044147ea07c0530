#include "base/durable_rename.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <string>
#include <string_view>
#include <system_error>

namespace cineflow::base {
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

std::size_t removeStalePartials(const std::filesystem::path& folder) noexcept {
  static constexpr std::string_view kMarker = ".partial-";
  std::size_t removed = 0;
  std::error_code error;
  std::filesystem::directory_iterator entries(folder.empty() ? "." : folder, error);
  for (; !error && entries != std::filesystem::directory_iterator(); entries.increment(error)) {
    const std::string name = entries->path().filename().string();
    const std::size_t marker = name.rfind(kMarker);
    if (marker == std::string::npos || marker == 0) {
      continue;
    }
    const std::string digits = name.substr(marker + kMarker.size());
    if (digits.empty() || digits.size() > 9 ||
        digits.find_first_not_of("0123456789") != std::string::npos) {
      continue;
    }
    const auto pid = static_cast<pid_t>(std::stol(digits));
    std::error_code typeError;
    if (pid <= 0 || pid == ::getpid() || !entries->is_regular_file(typeError) ||
        ::kill(pid, 0) == 0 || errno != ESRCH) {
      continue;  // its writer may still be at work (EPERM: a process of another user)
    }
    std::error_code removeError;
    if (std::filesystem::remove(entries->path(), removeError)) {
      ++removed;
    }
  }
  return removed;
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

}  // namespace cineflow::base

#include "support/small_file_system.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <system_error>

namespace cineflow::test {
namespace {

bool writeFile(const char* path, const std::string& text) {
  const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) {
    return false;
  }
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  return ok;
}

bool privateMounts = false;

}  // namespace

bool enterPrivateMounts() {
  const uid_t uid = ::geteuid();
  const gid_t gid = ::getegid();
  if (::unshare(CLONE_NEWNS) != 0) {
    // Not root: a user namespace in which this process is root, then the mount namespace.
    if (::unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0 || !writeFile("/proc/self/setgroups", "deny") ||
        !writeFile("/proc/self/uid_map", "0 " + std::to_string(uid) + " 1") ||
        !writeFile("/proc/self/gid_map", "0 " + std::to_string(gid) + " 1")) {
      return false;
    }
  }
  // Mounts made here must not propagate back to the system's namespace.
  privateMounts = ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0;
  return privateMounts;
}

SmallFileSystem::SmallFileSystem(std::size_t bytes) {
  std::string pattern =
      (std::filesystem::temp_directory_path() / "cineflow-full-disk-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    return;
  }
  path_ = pattern;
  const std::string options = "size=" + std::to_string(bytes) + ",mode=0700";
  mounted_ = privateMounts &&
             ::mount("tmpfs", path_.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, options.c_str()) == 0;
}

SmallFileSystem::~SmallFileSystem() {
  if (mounted_) {
    ::umount2(path_.c_str(), MNT_DETACH);
  }
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace cineflow::test

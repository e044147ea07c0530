#pragma once
// A full disk, for the fault tests: a tmpfs of a few hundred kilobytes mounted at a temporary
// folder in the test's own mount namespace, so that writes past it fail with ENOSPC exactly as
// on a full disk (nothing outside the test sees the mount). Mounting needs root or an
// unprivileged user namespace; where neither is allowed, mounted() is false and a test falls
// back to a file-size limit (plain_hdf5.hpp, FileSizeLimit: EFBIG instead of ENOSPC).

#include <cstddef>
#include <filesystem>

namespace cineflow::test {

// Moves this process into a mount namespace of its own (and, when not root, a user namespace in
// which it is). Call it first thing in main(), while the process has one thread: threads started
// later share the namespace. False when the system does not allow it.
bool enterPrivateMounts();

class SmallFileSystem {
 public:
  explicit SmallFileSystem(std::size_t bytes);
  ~SmallFileSystem();  // unmounts and removes the folder
  SmallFileSystem(const SmallFileSystem&) = delete;
  SmallFileSystem& operator=(const SmallFileSystem&) = delete;

  bool mounted() const { return mounted_; }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  bool mounted_ = false;
};

}  // namespace cineflow::test

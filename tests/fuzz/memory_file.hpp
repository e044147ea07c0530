#pragma once
// A fuzz input as a file that lives in memory (memfd_create): for readers that take a path and
// hand it to a library that opens it itself (matio, HDF5 by name, std::ifstream), without disk
// I/O per input. The path is /proc/self/fd/N; the file goes with the object.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace cineflow::fuzz {

class MemoryFile {
 public:
  MemoryFile(const std::uint8_t* data, std::size_t size)
      : fd_(memfd_create("cineflow-fuzz", MFD_CLOEXEC)) {
    if (fd_ < 0) {
      throw std::runtime_error("memfd_create failed");
    }
    for (std::size_t done = 0; done < size;) {
      const ssize_t wrote = ::write(fd_, data + done, size - done);
      if (wrote <= 0) {
        ::close(fd_);
        throw std::runtime_error("writing the memory file failed");
      }
      done += static_cast<std::size_t>(wrote);
    }
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  ~MemoryFile() { ::close(fd_); }
  MemoryFile(const MemoryFile&) = delete;
  MemoryFile& operator=(const MemoryFile&) = delete;

  const std::string& path() const { return path_; }

 private:
  int fd_;
  std::string path_;
};

}  // namespace cineflow::fuzz

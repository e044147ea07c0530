#pragma once
// Big-endian integers in byte buffers (the chunk headers of HDF5's compression filters).

#include <cstddef>
#include <cstdint>

namespace cineflow::process {

inline std::uint64_t readBigEndian(const std::byte* p, int bytes) {
  std::uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) {
    value = (value << 8) | static_cast<std::uint64_t>(p[i]);
  }
  return value;
}

inline void writeBigEndian(std::byte* p, std::uint64_t value, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) {
    p[i] = static_cast<std::byte>(value & 0xff);
    value >>= 8;
  }
}

}  // namespace cineflow::process

#include "compute/host_memory.hpp"

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace cineflow::compute {
namespace {
constexpr std::size_t kAlignment = 64;  // a cache line; also enough for AVX-512 loads
}

void* allocateAlignedHost(std::size_t bytes, MemorySpace space) {
  // aligned_alloc wants a multiple of the alignment, and may return null for zero bytes.
  const std::size_t rounded =
      bytes == 0 ? kAlignment : (bytes + kAlignment - 1) / kAlignment * kAlignment;
  void* ptr = std::aligned_alloc(kAlignment, rounded);
  if (ptr == nullptr) {
    throw std::runtime_error("cannot allocate " + std::to_string(bytes) + " bytes of " +
                             toString(space) + " memory");
  }
  return ptr;
}

void freeAlignedHost(void* ptr) noexcept {
  std::free(ptr);
}

}  // namespace cineflow::compute

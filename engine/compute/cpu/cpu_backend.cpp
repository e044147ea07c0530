#include "compute/cpu/cpu_backend.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

#include "compute/cpu/cpu_event.hpp"
#include "compute/cpu/cpu_stream.hpp"
#include "compute/cpu/parallel_for.hpp"

namespace cineflow::compute::cpu {
namespace {
constexpr std::size_t kAlignment = 64;  // a cache line; also enough for AVX-512 loads
}

std::string CpuBackend::deviceName() const {
  return "CPU (" + std::to_string(parallelism()) + " threads)";
}

std::unique_ptr<Stream> CpuBackend::createStream(const std::string& name) {
  return std::make_unique<CpuStream>(name);
}

std::unique_ptr<Event> CpuBackend::createEvent() {
  return std::make_unique<CpuEvent>();
}

void* CpuBackend::allocate(MemorySpace space, std::size_t bytes) {
  const std::size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  void* ptr = std::aligned_alloc(kAlignment, rounded == 0 ? kAlignment : rounded);
  if (ptr == nullptr) {
    throw std::runtime_error(std::string("CPU backend: cannot allocate ") + std::to_string(bytes) +
                             " bytes of " + toString(space) + " memory");
  }
  return ptr;
}

void CpuBackend::deallocate(MemorySpace /*space*/, void* ptr) noexcept {
  std::free(ptr);
}

void CpuBackend::copyBlocking(void* dst, const void* src, std::size_t bytes) const {
  std::memcpy(dst, src, bytes);
}

DeviceMemoryInfo CpuBackend::memoryInfo() const {
  const long pageSize = sysconf(_SC_PAGESIZE);
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long available = sysconf(_SC_AVPHYS_PAGES);
  DeviceMemoryInfo info;
  if (pageSize > 0 && pages > 0 && available >= 0) {
    info.totalBytes = static_cast<std::size_t>(pages) * static_cast<std::size_t>(pageSize);
    info.freeBytes = static_cast<std::size_t>(available) * static_cast<std::size_t>(pageSize);
  }
  return info;
}

}  // namespace cineflow::compute::cpu

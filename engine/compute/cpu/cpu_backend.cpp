#include "compute/cpu/cpu_backend.hpp"

#include <unistd.h>

#include <cstring>
#include <fstream>
#include <string>

#include "compute/cpu/cpu_event.hpp"
#include "compute/cpu/cpu_stream.hpp"
#include "compute/cpu/parallel_for.hpp"
#include "compute/host_memory.hpp"

namespace cineflow::compute::cpu {

std::string CpuBackend::deviceName() const {
  return "CPU (" + std::to_string(parallelism()) + " threads)";
}

std::string CpuBackend::hardwareIdentity() const {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) {
        return line.substr(line.find_first_not_of(" \t", colon + 1));
      }
    }
  }
  return "unknown CPU";
}

std::unique_ptr<Stream> CpuBackend::createStream(const std::string& name) {
  return std::make_unique<CpuStream>(name);
}

std::unique_ptr<Event> CpuBackend::createEvent() {
  return std::make_unique<CpuEvent>();
}

void* CpuBackend::allocateMemory(MemorySpace space, std::size_t bytes) {
  return allocateAlignedHost(bytes, space);
}

void CpuBackend::deallocateMemory(MemorySpace /*space*/, void* ptr) noexcept {
  freeAlignedHost(ptr);
}

void CpuBackend::copyBlocking(void* dst, const void* src, std::size_t bytes) const {
  std::memcpy(dst, src, bytes);
}

void CpuBackend::zeroBlocking(void* dst, std::size_t bytes) const {
  std::memset(dst, 0, bytes);
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

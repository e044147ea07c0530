#include "acquire/input_bounds.hpp"

#include <unistd.h>

#include <algorithm>

#include "acquire/frame_source.hpp"

namespace cineflow::acquire {
namespace {

constexpr std::uint64_t kMaxFrameBytes = std::uint64_t{512} << 20;

std::string mebibytes(std::uint64_t bytes) {
  return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB";
}

}  // namespace

std::optional<std::uint64_t> checkedProduct(std::initializer_list<std::uint64_t> factors) {
  std::uint64_t product = 1;
  for (const std::uint64_t factor : factors) {
    if (__builtin_mul_overflow(product, factor, &product)) {
      return std::nullopt;
    }
  }
  return product;
}

std::uint64_t frameBytesLimit() {
  static const std::uint64_t limit = [] {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long pageBytes = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || pageBytes <= 0) {
      return kMaxFrameBytes;
    }
    return std::min(kMaxFrameBytes,
                    static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(pageBytes) / 16);
  }();
  return limit;
}

void checkFrameBytes(std::optional<std::uint64_t> bytes, const std::string& who,
                     const std::string& field) {
  const std::uint64_t limit = frameBytesLimit();
  if (!bytes) {
    throw SourceError(who + ": " + field + ": a frame of more bytes than 64 bits can count");
  }
  if (*bytes > limit) {
    throw SourceError(who + ": " + field + ": a frame of " + std::to_string(*bytes) + " bytes (" +
                      mebibytes(*bytes) + "); Cineflow takes frames of at most " +
                      mebibytes(limit) + " on this machine (1/16 of its memory, 512 MiB at most)");
  }
}

void checkStatedBytes(std::optional<std::uint64_t> stated, std::uint64_t available,
                      const std::string& who, const std::string& field) {
  if (!stated) {
    throw SourceError(who + ": " + field + ": states more bytes than 64 bits can count, but only " +
                      std::to_string(available) + " follow");
  }
  if (*stated > available) {
    throw SourceError(who + ": " + field + ": states " + std::to_string(*stated) +
                      " bytes, but only " + std::to_string(available) + " follow");
  }
}

}  // namespace cineflow::acquire

#pragma once
// The simulators' frame cache (the ultrasound Simulator, the OctSimulator): one binary file per
// configuration. Internal.
//
// Layout (host byte order; the cache never leaves the machine): a fixed header
//   magic "CFSIMRF\0", format version, sample type, config hash, frames, transmits, elements,
//   samples, sample scale, payload bytes, payload checksum
// followed by the payload (frames x frame bytes). A file whose header, size or checksum does not
// match is rejected, never partly used.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "acquire/frame_source.hpp"  // ProgressFn

namespace cineflow::acquire::detail {

// 64-bit FNV-1a over typed fields, for cache keys and payload checksums.
class Hasher {
 public:
  void addBytes(std::span<const std::byte> bytes);
  void add(std::uint64_t value);
  void add(double value);  // by bit pattern, so -0.0 and 0.0 differ (harmless for a cache key)
  void add(const std::string& text);
  std::uint64_t value() const { return state_; }

 private:
  std::uint64_t state_ = 0xcbf29ce484222325ULL;
};

struct SimCacheKey {
  std::uint64_t configHash = 0;
  std::uint32_t sampleType = 0;
  std::uint64_t frames = 0, transmits = 0, elements = 0, samples = 0;
  std::uint64_t payloadBytes = 0;
};

struct SimCacheContents {
  double sampleScale = 1;
  std::vector<std::byte> payload;
};

// Reads and validates `path`. On any mismatch returns false with the reason in `reason`
// ("missing", "truncated", "checksum mismatch", ...).
bool loadSimCache(const std::filesystem::path& path, const SimCacheKey& key,
                  SimCacheContents& contents, std::string& reason);

// Writes through a temporary file in the same directory and renames it onto `path`, so a reader
// never sees a half-written cache. Throws std::runtime_error with the path and the reason.
void writeSimCache(const std::filesystem::path& path, const SimCacheKey& key, double sampleScale,
                   std::span<const std::byte> payload);

// "<prefix>-<16 hex digits of key.configHash>.bin" in base::cacheDirectory().
std::filesystem::path simCachePath(const std::string& prefix, const SimCacheKey& key);

enum class CacheOutcome {
  Loaded,   // frames came from the cache file
  Written,  // frames were synthesised and the cache file written
  Unsaved,  // frames were synthesised; writing the cache failed (see the message)
};
struct CachedFrames {
  CacheOutcome outcome = CacheOutcome::Written;
  std::string message;  // "loaded from cache PATH", "wrote cache PATH", "warning: ..."
  SimCacheContents contents;
};
// The frames cached at `path` under `key`, or else those `synthesise` makes, then cached there. A
// cache that cannot be written costs only the next start's time: a warning on stderr and in the
// message. Reports the cache's steps through `progress`.
CachedFrames loadOrSynthesise(const std::filesystem::path& path, const SimCacheKey& key,
                              const std::function<SimCacheContents()>& synthesise,
                              const ProgressFn& progress);

}  // namespace cineflow::acquire::detail

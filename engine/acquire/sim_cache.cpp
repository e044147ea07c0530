#include "acquire/sim_cache.hpp"
#include "base/cache_directory.hpp"

#include <unistd.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <system_error>

#include "base/durable_rename.hpp"

namespace cineflow::acquire::detail {

void Hasher::addBytes(std::span<const std::byte> bytes) {
  constexpr std::uint64_t kPrime = 0x100000001b3ULL;
  std::size_t i = 0;
  // Eight bytes per step: the payload is tens of megabytes and a per-byte loop costs ~50 ms.
  for (; i + 8 <= bytes.size(); i += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, bytes.data() + i, 8);
    state_ = (state_ ^ word) * kPrime;
  }
  for (; i < bytes.size(); ++i) {
    state_ = (state_ ^ static_cast<std::uint64_t>(bytes[i])) * kPrime;
  }
}

void Hasher::add(std::uint64_t value) {
  addBytes(std::as_bytes(std::span(&value, 1)));
}

void Hasher::add(double value) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  add(bits);
}

void Hasher::add(const std::string& text) {
  add(static_cast<std::uint64_t>(text.size()));
  addBytes(std::as_bytes(std::span(text.data(), text.size())));
}

namespace {

constexpr std::array<char, 8> kMagic = {'C', 'F', 'S', 'I', 'M', 'R', 'F', '\0'};
constexpr std::uint32_t kFormatVersion = 1;

#pragma pack(push, 1)
struct Header {
  std::array<char, 8> magic;
  std::uint32_t version;
  std::uint32_t sampleType;
  std::uint64_t configHash;
  std::uint64_t frames, transmits, elements, samples;
  double sampleScale;
  std::uint64_t payloadBytes;
  std::uint64_t payloadChecksum;
};
#pragma pack(pop)

std::uint64_t checksum(std::span<const std::byte> payload) {
  Hasher hasher;
  hasher.addBytes(payload);
  return hasher.value();
}

}  // namespace

bool loadSimCache(const std::filesystem::path& path, const SimCacheKey& key,
                  SimCacheContents& contents, std::string& reason) {
  std::error_code ec;
  const auto fileSize = std::filesystem::file_size(path, ec);
  if (ec) {
    reason = "missing";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    reason = "cannot open";
    return false;
  }
  Header header{};
  if (fileSize < sizeof header || !in.read(reinterpret_cast<char*>(&header), sizeof header)) {
    reason = "shorter than its header";
    return false;
  }
  if (header.magic != kMagic || header.version != kFormatVersion) {
    reason = "not a cache file of this version";
    return false;
  }
  if (header.configHash != key.configHash || header.sampleType != key.sampleType ||
      header.frames != key.frames || header.transmits != key.transmits ||
      header.elements != key.elements || header.samples != key.samples ||
      header.payloadBytes != key.payloadBytes) {
    reason = "written for another configuration";
    return false;
  }
  if (fileSize != sizeof header + header.payloadBytes) {
    reason = "size " + std::to_string(fileSize) + " bytes, expected " +
             std::to_string(sizeof header + header.payloadBytes);
    return false;
  }
  contents.payload.resize(header.payloadBytes);
  if (!in.read(reinterpret_cast<char*>(contents.payload.data()),
               static_cast<std::streamsize>(header.payloadBytes))) {
    reason = "read failed";
    return false;
  }
  if (checksum(contents.payload) != header.payloadChecksum) {
    reason = "checksum mismatch (corrupt)";
    contents.payload.clear();
    return false;
  }
  contents.sampleScale = header.sampleScale;
  return true;
}

void writeSimCache(const std::filesystem::path& path, const SimCacheKey& key, double sampleScale,
                   std::span<const std::byte> payload) {
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) {
    throw std::runtime_error("cannot create cache directory " + path.parent_path().string() + ": " +
                             ec.message());
  }
  // Unique per process and per call, so concurrent writers never share a temporary file.
  static std::atomic<unsigned> counter{0};
  std::filesystem::path temporary = path;
  temporary += ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);

  Header header{};
  header.magic = kMagic;
  header.version = kFormatVersion;
  header.sampleType = key.sampleType;
  header.configHash = key.configHash;
  header.frames = key.frames;
  header.transmits = key.transmits;
  header.elements = key.elements;
  header.samples = key.samples;
  header.sampleScale = sampleScale;
  header.payloadBytes = payload.size();
  header.payloadChecksum = checksum(payload);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(&header), sizeof header);
    out.write(reinterpret_cast<const char*>(payload.data()),
              static_cast<std::streamsize>(payload.size()));
    out.flush();
    if (!out) {
      out.close();
      std::filesystem::remove(temporary, ec);
      throw std::runtime_error("cannot write cache file " + temporary.string());
    }
  }
  if (const auto failure = base::publishFile(temporary, path)) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw std::runtime_error("cannot publish cache file " + path.string() + ": " +
                             failure->operation + ": " + failure->reason);
  }
}

std::filesystem::path simCachePath(const std::string& prefix, const SimCacheKey& key) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(key.configHash));
  return base::cacheDirectory() / (prefix + "-" + hex + ".bin");
}

CachedFrames loadOrSynthesise(const std::filesystem::path& path, const SimCacheKey& key,
                              const std::function<SimCacheContents()>& synthesise,
                              const ProgressFn& progress) {
  const auto report = [&progress](double fraction, const std::string& what) {
    if (progress) {
      progress(fraction, what);
    }
  };
  CachedFrames frames;
  report(0, "cache: looking for " + path.string());
  std::string reason;
  if (loadSimCache(path, key, frames.contents, reason)) {
    frames.outcome = CacheOutcome::Loaded;
    frames.message = "loaded from cache " + path.string();
    report(1, "cache: " + frames.message);
    return frames;
  }
  if (reason != "missing") {
    report(0, "cache: ignoring " + path.string() + " (" + reason + ")");
  }
  frames.contents = synthesise();
  report(0.99, "cache: writing " + path.string());
  try {
    writeSimCache(path, key, frames.contents.sampleScale, frames.contents.payload);
    frames.outcome = CacheOutcome::Written;
    frames.message = "wrote cache " + path.string();
  } catch (const std::exception& e) {
    // The frames are fine; only the next start will be slower.
    frames.outcome = CacheOutcome::Unsaved;
    frames.message = std::string("warning: simulator cache not saved: ") + e.what();
    std::fprintf(stderr, "cineflow: %s\n", frames.message.c_str());
  }
  report(1, frames.message);
  return frames;
}

}  // namespace cineflow::acquire::detail

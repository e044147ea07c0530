#include "pipeline/cineloop.hpp"

#include <algorithm>
#include <stdexcept>

namespace cineflow::pipeline {
namespace {
// The sequence of an abandoned slot's header: no frame has it (sequences count from 0).
constexpr std::uint64_t kNoFrame = ~std::uint64_t{0};
}  // namespace

void Cineloop::configure(compute::Backend& backend, int capacity,
                         const process::ImageGeometry& geometry) {
  if (capacity < 1) {
    throw std::invalid_argument("cineloop capacity must be at least 1 frame");
  }
  auto fresh = std::make_shared<Storage>();
  fresh->backend = &backend;
  fresh->images = compute::DeviceBuffer<float>(backend, geometry.values() * capacity);
  // Committed now, not page by page as the frame loop first writes each slot (on the CPU backend
  // that cost a quarter of an OCT B-scan's time until the ring had wrapped).
  backend.zeroBlocking(fresh->images.data(), fresh->images.bytes());
  fresh->entries = std::vector<Slot>(static_cast<std::size_t>(capacity));
  fresh->writeOrder.assign(static_cast<std::size_t>(capacity), 0);
  fresh->geometry = geometry;
  std::lock_guard lock(storageMutex_);
  storage_ = std::move(fresh);
  nextSlot_ = 0;
}

std::shared_ptr<const Cineloop::Storage> Cineloop::storage() const {
  std::lock_guard lock(storageMutex_);
  return storage_;
}

int Cineloop::capacity() const {
  auto s = storage();
  return s ? static_cast<int>(s->entries.size()) : 0;
}

process::ImageGeometry Cineloop::geometry() const {
  auto s = storage();
  return s ? s->geometry : process::ImageGeometry{};
}

int Cineloop::claimNextSlot() {
  const int slot = nextSlot_;
  nextSlot_ = (nextSlot_ + 1) % static_cast<int>(storage_->entries.size());
  return slot;
}

compute::DeviceSpan<float> Cineloop::slotImage(int slot) const {
  const std::size_t values = storage_->geometry.values();
  return storage_->images.view().subspan(static_cast<std::size_t>(slot) * values, values);
}

compute::DeviceSpan<float> Cineloop::slotsImage(int first, int count) const {
  const std::size_t values = storage_->geometry.values();
  return storage_->images.view().subspan(static_cast<std::size_t>(first) * values,
                                         static_cast<std::size_t>(count) * values);
}

// Writer callbacks use storage_ without the storage mutex: only the engine thread replaces it, and
// only after the compute stream has drained.
void Cineloop::beginWrite(int slot) noexcept {
  Storage& s = *storage_;
  if (s.newest.load() == slot) {
    s.newest.store(-1);
  }
  s.entries[static_cast<std::size_t>(slot)].generation.fetch_add(1, std::memory_order_acq_rel);
}

void Cineloop::endWrite(int slot, const acquire::FrameHeader& header, bool fresh) noexcept {
  Storage& s = *storage_;
  {
    std::lock_guard lock(s.headerMutex);
    s.entries[static_cast<std::size_t>(slot)].header = header;
    s.entries[static_cast<std::size_t>(slot)].fresh = fresh;
    s.writeOrder[static_cast<std::size_t>(slot)] = s.written.fetch_add(1) + 1;
  }
  s.entries[static_cast<std::size_t>(slot)].generation.fetch_add(1, std::memory_order_acq_rel);
  s.newest.store(slot);
}

void Cineloop::abandonWrite(int slot) noexcept {
  Storage& s = *storage_;
  {
    std::lock_guard lock(s.headerMutex);
    s.entries[static_cast<std::size_t>(slot)].header = {};
    s.entries[static_cast<std::size_t>(slot)].header.sequence = kNoFrame;
    s.writeOrder[static_cast<std::size_t>(slot)] = 0;
  }
  s.entries[static_cast<std::size_t>(slot)].generation.fetch_add(1, std::memory_order_acq_rel);
}

std::optional<acquire::FrameHeader> Cineloop::latest() const {
  auto s = storage();
  if (!s) {
    return std::nullopt;
  }
  const int slot = s->newest.load();
  if (slot < 0) {
    return std::nullopt;
  }
  std::lock_guard lock(s->headerMutex);
  return s->entries[static_cast<std::size_t>(slot)].header;
}

std::vector<acquire::FrameHeader> Cineloop::headers() const {
  std::vector<acquire::FrameHeader> result;
  auto s = storage();
  if (!s) {
    return result;
  }
  std::vector<std::pair<std::uint64_t, acquire::FrameHeader>> ordered;
  {
    std::lock_guard lock(s->headerMutex);
    for (std::size_t i = 0; i < s->entries.size(); ++i) {
      const std::uint64_t generation = s->entries[i].generation.load();
      if (generation != 0 && generation % 2 == 0 && s->writeOrder[i] != 0) {
        ordered.emplace_back(s->writeOrder[i], s->entries[i].header);
      }
    }
  }
  std::sort(ordered.begin(), ordered.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  result.reserve(ordered.size());
  for (const auto& entry : ordered) {
    result.push_back(entry.second);
  }
  return result;
}

std::optional<int> Cineloop::findSlot(const Storage& s, std::optional<std::uint64_t> sequence) {
  if (!sequence) {
    const int newest = s.newest.load();
    return newest < 0 ? std::nullopt : std::optional<int>(newest);
  }
  std::lock_guard lock(s.headerMutex);
  for (std::size_t i = 0; i < s.entries.size(); ++i) {
    const std::uint64_t generation = s.entries[i].generation.load();
    if (generation != 0 && generation % 2 == 0 && s.entries[i].header.sequence == *sequence) {
      return static_cast<int>(i);
    }
  }
  return std::nullopt;
}

bool Cineloop::readImage(std::optional<std::uint64_t> sequence, const ImageReader& read,
                         acquire::FrameHeader& header, process::ImageGeometry& geometry,
                         bool* fresh) const {
  auto s = storage();
  if (!s) {
    return false;
  }
  constexpr int kAttempts = 8;  // a slot is rewritten only every M frames: retries are rare
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    const std::optional<int> slot = findSlot(*s, sequence);
    if (!slot) {
      return false;
    }
    const Slot& entry = s->entries[static_cast<std::size_t>(*slot)];
    const std::uint64_t before = entry.generation.load(std::memory_order_acquire);
    if (before == 0 || before % 2 != 0) {
      continue;
    }
    bool entryFresh = true;
    {
      std::lock_guard lock(s->headerMutex);
      header = entry.header;
      entryFresh = entry.fresh;
    }
    const std::size_t count = s->geometry.values();
    if (!read(s->images.data() + static_cast<std::size_t>(*slot) * count, s->geometry)) {
      return false;
    }
    if (entry.generation.load(std::memory_order_acquire) == before &&
        (!sequence || header.sequence == *sequence)) {
      geometry = s->geometry;
      if (fresh != nullptr) {
        *fresh = entryFresh;
      }
      return true;
    }
  }
  return false;
}

bool Cineloop::copyImage(std::optional<std::uint64_t> sequence, std::vector<float>& pixels,
                         acquire::FrameHeader& header, process::ImageGeometry& geometry,
                         bool* fresh) const {
  auto s = storage();
  if (!s) {
    return false;
  }
  const compute::Backend& backend = *s->backend;
  return readImage(
      sequence,
      [&](const float* image, const process::ImageGeometry& g) {
        pixels.resize(g.values());
        backend.copyBlocking(pixels.data(), image, g.values() * sizeof(float));
        return true;
      },
      header, geometry, fresh);
}

}  // namespace cineflow::pipeline

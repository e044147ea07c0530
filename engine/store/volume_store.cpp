#include "store/volume_store.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

namespace cineflow::store {

struct VolumeStore::Pool {
  compute::DeviceBuffer<float> memory;
  RangeAllocator ranges;
};

struct VolumeStore::Access::Entry {
  std::uint64_t id = 0;
  process::VolumeInfo info;
  std::size_t offset = 0;  // floats into the pool
  std::size_t floats = 0;
  const float* base = nullptr;  // pool memory + offset; moves only under the exclusive lock
  std::unique_ptr<compute::Event> ready;
  mutable std::shared_mutex mutex;
  bool saved = false;  // these two: under the store's mutex
  std::string savedPath;
};

namespace {

std::string megabytes(std::size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MB", static_cast<double>(bytes) / 1e6);
  return text;
}

}  // namespace

// try_to_lock cannot fail here: an entry is held exclusively only by discard() and setCapacity(),
// under the store's mutex, which access() holds while it takes this lock (and a blocking lock here
// would order the two mutexes both ways).
VolumeStore::Access::Access(std::shared_ptr<const Entry> entry, std::shared_ptr<const void> pool)
    : pool_(std::move(pool)), entry_(std::move(entry)), lock_(entry_->mutex, std::try_to_lock) {
  if (!lock_) {
    entry_.reset();
    pool_.reset();
  }
}

const process::VolumeInfo& VolumeStore::Access::info() const {
  return entry_->info;
}

std::uint64_t VolumeStore::Access::id() const {
  return entry_->id;
}

const compute::Event& VolumeStore::Access::ready() const {
  return *entry_->ready;
}

process::VolumeView VolumeStore::Access::view() const {
  const process::VolumeShape& shape = entry_->info.shape;
  const float* p = entry_->base;
  process::VolumeView view;
  view.volume = {p, shape.voxels()};
  p += shape.voxels();
  view.alongY = {p, shape.alongY()};
  p += shape.alongY();
  view.alongZ = {p, shape.alongZ()};
  p += shape.alongZ();
  view.alongX = {p, shape.alongX()};
  return view;
}

VolumeStore::VolumeStore(compute::Backend& backend)
    : backend_(backend), stream_(backend.createStream("volume-store")) {}

VolumeStore::~VolumeStore() {
  stream_->synchronize();
  std::lock_guard lock(mutex_);
  for (const auto& entry : entries_) {
    entry->ready->synchronize();  // copies still in flight on an endpoint stream
  }
}

std::size_t VolumeStore::suggestedCapacity(const compute::Backend& backend) {
  const compute::DeviceMemoryInfo memory = backend.memoryInfo();
  if (backend.kind() == compute::BackendKind::Cpu) {
    // Host memory is shared with everything else on the machine: a quarter of what is free, and
    // no more than 4 GiB.
    return std::min<std::size_t>(memory.freeBytes / 4, std::size_t{4} << 30);
  }
  return memory.freeBytes / 2;
}

std::size_t VolumeStore::capacity() const {
  std::lock_guard lock(mutex_);
  return pool_ ? pool_->ranges.capacity() * sizeof(float) : 0;
}

std::size_t VolumeStore::used() const {
  std::lock_guard lock(mutex_);
  return pool_ ? pool_->ranges.used() * sizeof(float) : 0;
}

std::size_t VolumeStore::floatsFor(const process::VolumeInfo& info) const {
  return info.shape.voxels() + info.shape.alongY() + info.shape.alongZ() + info.shape.alongX();
}

std::shared_ptr<VolumeStore::Entry> VolumeStore::takeEntryLocked() {
  if (!spare_.empty()) {
    std::shared_ptr<Entry> entry = std::move(spare_.back());
    spare_.pop_back();
    return entry;
  }
  auto entry = std::make_shared<Entry>();  // none prepared: allocates
  entry->ready = backend_.createSyncEvent();
  return entry;
}

void VolumeStore::prepareFor(const process::VolumeShape& shape) {
  std::lock_guard lock(mutex_);
  process::VolumeInfo sized;
  sized.shape = shape;
  const std::size_t floats = floatsFor(sized);
  if (!pool_ || floats == 0) {
    return;
  }
  const std::size_t fit = std::min(kMaxSpares, pool_->ranges.capacity() / floats);
  const auto slices = static_cast<std::size_t>(shape.ny);
  entries_.reserve(fit);
  while (entries_.size() + spare_.size() < fit) {
    auto entry = std::make_shared<Entry>();
    entry->ready = backend_.createSyncEvent();
    entry->info.elevationM.reserve(slices);
    entry->info.sequence.reserve(slices);
    entry->info.timestampNs.reserve(slices);
    spare_.push_back(std::move(entry));
  }
}

std::size_t VolumeStore::spareCount() const {
  std::lock_guard lock(mutex_);
  return spare_.size();
}

std::string VolumeStore::setCapacity(std::size_t bytes) {
  std::lock_guard lock(mutex_);
  const std::size_t floats = bytes / sizeof(float);
  const std::size_t used = pool_ ? pool_->ranges.used() : 0;
  if (floats < used) {
    return "the buffered volumes need " + megabytes(used * sizeof(float)) +
           "; save or discard some first";
  }
  std::vector<std::unique_lock<std::shared_mutex>> held;
  for (const auto& entry : entries_) {
    held.emplace_back(entry->mutex, std::try_to_lock);
    if (!held.back()) {
      return "volume " + std::to_string(entry->id) + " is being read or saved";
    }
  }
  std::shared_ptr<Pool> fresh;
  if (floats > 0) {
    fresh = std::make_shared<Pool>();
    try {
      fresh->memory = compute::DeviceBuffer<float>(backend_, floats);
    } catch (const std::exception& error) {
      return "cannot reserve " + megabytes(bytes) + " for the volume store: " + error.what();
    }
    fresh->ranges = RangeAllocator(floats);
  }
  for (const auto& entry : entries_) {
    entry->ready->synchronize();
    const std::optional<std::size_t> offset = fresh->ranges.allocate(entry->floats);
    if (!offset) {  // fragmentation cannot happen here: the new pool is empty and large enough
      return "the buffered volumes do not fit in " + megabytes(bytes);
    }
    backend_.copyBlocking(fresh->memory.data() + *offset, entry->base,
                          entry->floats * sizeof(float));
    entry->offset = *offset;
    entry->base = fresh->memory.data() + *offset;
  }
  pool_ = std::move(fresh);
  return {};
}

std::optional<std::uint64_t> VolumeStore::buffer(const process::VolumeInfo& info,
                                                 const process::VolumeView& view,
                                                 const compute::Event& done,
                                                 compute::Stream& stream, std::string& why) {
  std::lock_guard lock(mutex_);
  return bufferLocked(info, view, done, stream, why);
}

std::optional<std::uint64_t> VolumeStore::bufferLocked(const process::VolumeInfo& info,
                                                       const process::VolumeView& view,
                                                       const compute::Event& done,
                                                       compute::Stream& stream, std::string& why) {
  const std::size_t floats = floatsFor(info);
  if (!pool_) {
    why = "the volume store has no capacity reserved";
    return std::nullopt;
  }
  const std::optional<std::size_t> offset = pool_->ranges.allocate(floats);
  if (!offset) {
    why = "the volume store is full (" + megabytes(pool_->ranges.used() * sizeof(float)) + " of " +
          megabytes(pool_->ranges.capacity() * sizeof(float)) + " used; this volume needs " +
          megabytes(floats * sizeof(float)) + "): save or discard volumes, or raise the capacity";
    return std::nullopt;
  }
  std::shared_ptr<Entry> entry = takeEntryLocked();
  entry->id = nextId_++;
  entry->info = info;  // into reserved storage when the entry is a spare
  entry->offset = *offset;
  entry->floats = floats;
  float* base = pool_->memory.data() + *offset;
  entry->base = base;
  stream.wait(done);
  for (const compute::DeviceSpan<const float>& part :
       {view.volume, view.alongY, view.alongZ, view.alongX}) {
    stream.copyAsync(base, part.data(), part.bytes());
    base += part.size();
  }
  stream.record(*entry->ready);
  entries_.push_back(entry);
  return entry->id;
}

std::optional<std::uint64_t> VolumeStore::adopt(const process::VolumeInfo& info,
                                                std::span<const float> volume,
                                                std::span<const float> alongY,
                                                std::span<const float> alongZ,
                                                std::span<const float> alongX,
                                                const std::string& savedPath, std::string& why) {
  const process::VolumeShape& shape = info.shape;
  if (volume.size() != shape.voxels() || alongY.size() != shape.alongY() ||
      alongZ.size() != shape.alongZ() || alongX.size() != shape.alongX()) {
    why = "the data does not match the volume's shape";
    return std::nullopt;
  }
  // The host data goes through the store's stream like any other source, as a ready volume.
  const auto done = backend_.createSyncEvent();
  stream_->record(*done);
  const process::VolumeView view{compute::DeviceSpan<const float>(volume.data(), volume.size()),
                                 compute::DeviceSpan<const float>(alongY.data(), alongY.size()),
                                 compute::DeviceSpan<const float>(alongZ.data(), alongZ.size()),
                                 compute::DeviceSpan<const float>(alongX.data(), alongX.size())};
  std::optional<std::uint64_t> id;
  {
    std::lock_guard lock(mutex_);
    id = bufferLocked(info, view, *done, *stream_, why);
    if (id) {
      entries_.back()->saved = true;
      entries_.back()->savedPath = savedPath;
    }
  }
  stream_->synchronize();  // the host data must outlive the copy
  if (const std::string error = stream_->takeError(); !error.empty()) {
    throw std::runtime_error("adopting a volume: " + error);
  }
  return id;
}

std::optional<std::uint64_t> VolumeStore::bufferLatest(const process::VolumeLock& volume,
                                                       std::string& why) {
  if (!volume) {
    why = "no complete volume yet";
    return std::nullopt;
  }
  std::optional<std::uint64_t> id;
  {
    std::lock_guard lock(mutex_);
    id = bufferLocked(volume.info(), volume.view(), volume.done(), *stream_, why);
  }
  stream_->synchronize();  // the engine may reuse the volume once the copy is done
  const std::string error = stream_->takeError();
  if (!error.empty()) {
    throw std::runtime_error("buffering volume " + std::to_string(volume.info().number) + ": " +
                             error);
  }
  return id;
}

void VolumeStore::onVolume(const process::VolumeEndpoint& endpoint) {
  if (!autoBuffer_) {
    return;
  }
  std::string why;
  if (!buffer(endpoint.info, endpoint.view, endpoint.done, endpoint.stream, why)) {
    autoBuffer_ = false;
    std::lock_guard lock(mutex_);
    notice_ = "Auto-buffer stopped at volume " + std::to_string(endpoint.info.number) + ": " + why;
  }
}

std::string VolumeStore::takeNotice() {
  std::lock_guard lock(mutex_);
  return std::exchange(notice_, {});
}

std::vector<BufferedSummary> VolumeStore::list() const {
  std::lock_guard lock(mutex_);
  std::vector<BufferedSummary> result;
  result.reserve(entries_.size());
  for (const auto& entry : entries_) {
    result.push_back(
        {entry->id, entry->info, entry->floats * sizeof(float), entry->saved, entry->savedPath});
  }
  return result;
}

VolumeStore::Access VolumeStore::access(std::uint64_t id) const {
  std::lock_guard lock(mutex_);
  for (const auto& entry : entries_) {
    if (entry->id == id) {
      return Access(entry, pool_);
    }
  }
  return {};
}

std::string VolumeStore::discard(std::uint64_t id) {
  std::lock_guard lock(mutex_);
  const auto it = std::find_if(entries_.begin(), entries_.end(),
                               [id](const auto& entry) { return entry->id == id; });
  if (it == entries_.end()) {
    return "no buffered volume " + std::to_string(id);
  }
  std::unique_lock<std::shared_mutex> exclusive((*it)->mutex, std::try_to_lock);
  if (!exclusive) {
    return "volume " + std::to_string(id) + " is being read or saved";
  }
  (*it)->ready->synchronize();  // its copy may still be in flight
  pool_->ranges.release((*it)->offset, (*it)->floats);
  exclusive.unlock();
  std::shared_ptr<Entry> entry = std::move(*it);
  entries_.erase(it);
  if (entry.use_count() == 1) {  // no Access holds it: reuse its event and storage
    entry->id = 0;
    entry->saved = false;
    entry->savedPath.clear();
    entry->base = nullptr;
    spare_.push_back(std::move(entry));
  }
  return {};
}

void VolumeStore::markSaved(std::uint64_t id, const std::string& path) {
  // Compared as the files they name (a relative path, "..", a symbolic link to the folder).
  const auto fileOf = [](const std::string& name) {
    std::error_code ignored;
    const std::filesystem::path file = std::filesystem::weakly_canonical(name, ignored);
    return file.empty() ? std::filesystem::path(name).lexically_normal() : file;
  };
  const std::filesystem::path file = fileOf(path);
  std::lock_guard lock(mutex_);
  for (const auto& entry : entries_) {
    if (entry->id == id) {
      entry->saved = true;
      entry->savedPath = path;
    } else if (entry->saved && fileOf(entry->savedPath) == file) {
      // Its file now holds another volume: it is saved nowhere.
      entry->saved = false;
      entry->savedPath.clear();
    }
  }
}

}  // namespace cineflow::store

#include "store/volume_saver.hpp"

#include "base/thread_name.hpp"
#include "store/store_error.hpp"
#include "store/volume_reader.hpp"

namespace cineflow::store {
namespace {
constexpr double kCopyShare = 0.1;  // of a save's progress bar: the device-to-host copy
}

VolumeSaver::VolumeSaver(compute::Backend& backend, VolumeStore& store)
    : backend_(backend),
      store_(store),
      stream_(backend.createStream("volume-save")),
      thread_([this] { run(); }) {}

VolumeSaver::~VolumeSaver() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    queue_.clear();
  }
  changed_.notify_all();
  thread_.join();
}

void VolumeSaver::save(SaveRequest request) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back({std::move(request), {}});
  }
  changed_.notify_all();
}

void VolumeSaver::open(std::filesystem::path path) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back({{}, std::move(path)});
  }
  changed_.notify_all();
}

SaveProgress VolumeSaver::progress() const {
  std::lock_guard lock(mutex_);
  return progress_;
}

void VolumeSaver::setProgress(double fraction) {
  std::lock_guard lock(mutex_);
  progress_.fraction = fraction;
}

std::size_t VolumeSaver::pending() const {
  std::lock_guard lock(mutex_);
  return queue_.size() + (busy_ ? 1 : 0);
}

std::vector<SaveOutcome> VolumeSaver::takeOutcomes() {
  std::lock_guard lock(mutex_);
  return std::exchange(outcomes_, {});
}

void VolumeSaver::waitIdle() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return queue_.empty() && !busy_; });
}

void VolumeSaver::run() {
  base::setCurrentThreadName("cf-save");
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (stopping_) {
      return;
    }
    Job job = std::move(queue_.front());
    queue_.pop_front();
    busy_ = true;
    progress_ = {true, job.open.empty() ? job.save.id : 0, 0.0};
    lock.unlock();
    SaveOutcome outcome = job.open.empty() ? saveOne(job.save) : openOne(job.open);
    lock.lock();
    outcomes_.push_back(std::move(outcome));
    busy_ = false;
    progress_ = {};
    changed_.notify_all();
  }
}

SaveOutcome VolumeSaver::saveOne(const SaveRequest& request) {
  SaveOutcome outcome{request.id, request.path, false, {}, false, std::nullopt, {}};
  // Named by the engine's volume number, as the file, the list and the operator know it.
  std::string what = "volume " + std::to_string(request.id);
  const std::int64_t startNs = profile::steadyNowNs();
  std::int64_t lastFrame = -1;
  try {
    const VolumeStore::Access access = store_.access(request.id);
    if (!access) {
      outcome.message = "Cannot save " + what + ": it is no longer buffered";
      return outcome;
    }
    what = "volume " + std::to_string(access.info().number);
    if (!request.mayReplace && std::filesystem::exists(request.path)) {
      outcome.message = "Cannot save " + what + " (it stays buffered): " + request.path.string() +
                        " already exists and is not replaced";
      return outcome;
    }
    const process::VolumeView view = access.view();
    if (!access.info().sequence.empty()) {
      lastFrame = static_cast<std::int64_t>(access.info().sequence.back());
    }
    const std::size_t floats =
        view.volume.size() + view.alongY.size() + view.alongZ.size() + view.alongX.size();
    if (staging_.size() < floats) {
      staging_ = {};  // the old staging goes first: pinned memory is scarce
      staging_ = compute::PinnedBuffer<float>(backend_, floats);
    }
    stream_->wait(access.ready());
    float* host = staging_.data();
    HostVolume data;
    std::span<const float>* parts[] = {&data.volume, &data.alongY, &data.alongZ, &data.alongX};
    const compute::DeviceSpan<const float> sources[] = {view.volume, view.alongY, view.alongZ,
                                                        view.alongX};
    for (int i = 0; i < 4; ++i) {
      stream_->copyAsync(host, sources[i].data(), sources[i].bytes());
      *parts[i] = std::span<const float>(host, sources[i].size());
      host += sources[i].size();
    }
    stream_->synchronize();
    if (const std::string error = stream_->takeError(); !error.empty()) {
      outcome.message = "Cannot save " + what + ": copying it from the device failed: " + error;
      return outcome;
    }
    setProgress(kCopyShare);
    writeVolumeFile(request.path, access.info(), data, request.metadata, request.attributes,
                    request.compression, [this](double written) {
                      setProgress(kCopyShare + (1.0 - kCopyShare) * written);
                    });
  } catch (const std::exception& error) {  // StoreError names the file and the operation
    outcome.message = "Cannot save " + what + " (it stays buffered): " + error.what();
    return outcome;
  }
  store_.markSaved(request.id, request.path.string());
  probe_.record(startNs, profile::steadyNowNs(), lastFrame);
  outcome.ok = true;
  outcome.message = "Saved " + what + " to " + request.path.string();
  return outcome;
}

SaveOutcome VolumeSaver::openOne(const std::filesystem::path& path) {
  SaveOutcome outcome{0, path, false, {}, true, std::nullopt, {}};
  try {
    const LoadedVolume loaded = readVolumeFile(path);
    setProgress(0.5);
    std::string why;
    const auto id = store_.adopt(loaded.info, loaded.volume, loaded.alongY, loaded.alongZ,
                                 loaded.alongX, path.string(), why);
    if (!id) {
      outcome.message = "Cannot review " + path.string() + ": " + why;
      return outcome;
    }
    outcome.id = *id;
    outcome.ok = true;
    outcome.message =
        "Opened volume " + std::to_string(loaded.info.number) + " from " + path.string();
    if (!loaded.studyNotice.empty()) {
      outcome.message += " (" + loaded.studyNotice + ")";
    }
    outcome.study = loaded.study;
    outcome.metadata = loaded.metadata;
  } catch (const std::exception& error) {  // StoreError names the file and the object
    outcome.message = error.what();
  }
  return outcome;
}

}  // namespace cineflow::store

#include "ultrasound/plugin_source.hpp"

#include <chrono>
#include <cstdio>

#include "ultrasound/stream_description.hpp"

namespace cineflow::ultrasound {
namespace {

constexpr std::size_t kErrorBytes = 512;

}  // namespace

PluginSource::PluginSource(std::shared_ptr<acquire::PluginLibrary> plugin,
                           const std::string& parameters)
    : plugin_(std::move(plugin)) {
  const cf_source_plugin& table = plugin_->table();
  const std::string who = "source plugin '" + plugin_->name() + "'";
  char error[kErrorBytes] = {};
  source_ = table.open(parameters.c_str(), error, sizeof error);
  if (source_ == nullptr) {
    throw acquire::SourceError(who +
                               " did not open: " + (error[0] != '\0' ? error : "no reason given"));
  }
  try {
    cf_stream stream{};
    if (table.describe(source_, &stream, error, sizeof error) != 0) {
      throw acquire::SourceError(who + " could not describe its stream: " +
                                 (error[0] != '\0' ? error : "no reason given"));
    }
    UltrasoundStream checked = checkUltrasoundStream(stream, who);
    params_ = std::move(checked.params);
    sampleType_ = checked.sampleType;
    frameRateHz_ = checked.frameRateHz;
    frameCount_ = checked.frameCount;
    description_ = plugin_->name() +
                   (checked.description.empty() ? std::string() : ": " + checked.description);
  } catch (...) {
    table.close(source_);
    throw;
  }
}

PluginSource::~PluginSource() {
  stopAcquisition();
  plugin_->table().close(source_);
}

void PluginSource::startAcquisition() {
  stopping_ = false;
  const cf_source_plugin& table = plugin_->table();
  char error[kErrorBytes] = {};
  if (table.start != nullptr && table.start(source_, error, sizeof error) != 0) {
    throw acquire::SourceError("source plugin '" + plugin_->name() + "' did not start: " +
                               (error[0] != '\0' ? error : "no reason given"));
  }
  scratch_.resize(frameBytes());  // skipFrame's, once
  started_ = true;
}

void PluginSource::skipFrame(std::uint64_t index) {
  acquire::SliceInfo slice;
  readFrame(index, scratch_, slice);
}

void PluginSource::stopAcquisition() {
  stopping_ = true;
  if (started_.exchange(false) && plugin_->table().stop != nullptr) {
    plugin_->table().stop(source_);
  }
}

void PluginSource::readFrame(std::uint64_t index, std::span<std::byte> dst,
                             acquire::SliceInfo& slice) {
  if (dst.size() != frameBytes()) {
    throw acquire::SourceError("source plugin '" + plugin_->name() + "': destination holds " +
                               std::to_string(dst.size()) + " bytes, a frame needs " +
                               std::to_string(frameBytes()));
  }
  char error[kErrorBytes] = {};
  cf_frame_info info{};
  readingSinceNs_ = std::chrono::steady_clock::now().time_since_epoch().count();
  const std::int64_t written = plugin_->table().read_frame(source_, index, dst.data(), dst.size(),
                                                           &info, error, sizeof error);
  readingSinceNs_ = 0;
  if (written < 0 && stopping_) {
    throw acquire::SourceStopped();
  }
  if (written < 0) {
    throw acquire::SourceError("source plugin '" + plugin_->name() + "': frame " +
                               std::to_string(index) + ": " +
                               (error[0] != '\0' ? error : "failed without a reason"));
  }
  if (static_cast<std::uint64_t>(written) != dst.size()) {
    throw acquire::SourceError("source plugin '" + plugin_->name() + "': frame " +
                               std::to_string(index) + " has " + std::to_string(written) +
                               " bytes, the stream's frames have " + std::to_string(dst.size()));
  }
  lost_ += info.lost;  // read by the engine thread for its statistics
  slice.sliceIndex = static_cast<int>(info.slice_index);
  slice.elevationM = info.elevation_m;
}

std::string PluginSource::liveStatus() const {
  const std::int64_t since = readingSinceNs_;
  if (since == 0 || stopping_) {
    return {};
  }
  const double waited =
      static_cast<double>(std::chrono::steady_clock::now().time_since_epoch().count() - since) *
      1e-9;
  if (waited < kStallSeconds) {
    return {};
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", waited);
  return "no frame from source plugin '" + plugin_->name() + "' for " + text + " s";
}

}  // namespace cineflow::ultrasound

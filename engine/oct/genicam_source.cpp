#include "oct/genicam_source.hpp"

#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "oct/raw_spectra_import.hpp"
#include "profile/stage_probe.hpp"

namespace cineflow::oct {
namespace {

using Json = nlohmann::json;
using acquire::SourceError;

const std::set<std::string, std::less<>> kCameraKeys = {
    "pixel_format",   "exposure_us", "line_rate_hz", "frame_rate_hz",
    "trigger_source", "buffers",     "features"};

std::string keysText(const std::set<std::string, std::less<>>& keys) {
  std::string text;
  for (const std::string& key : keys) {
    text += (text.empty() ? "" : ", ") + key;
  }
  return text;
}

// The camera object's keys as settings; each message names `name` and the key.
acquire::CameraSettings cameraSettings(const Json& camera, const std::string& name) {
  const auto fail = [&](const std::string& problem) -> void {
    throw SourceError(name + ": \"camera\": " + problem);
  };
  acquire::CameraSettings settings;
  if (!camera.is_object()) {
    fail("expected an object {\"pixel_format\": ..., ...}, found " + camera.dump());
  }
  for (const auto& item : camera.items()) {
    if (!kCameraKeys.contains(item.key())) {
      fail("unknown key \"" + item.key() + "\" (known keys: " + keysText(kCameraKeys) + ")");
    }
  }
  const auto text = [&](const char* key) {
    const Json& value = camera.at(key);
    if (!value.is_string() || value.get<std::string>().empty()) {
      fail(std::string("key \"") + key + "\": expected a name, found " + value.dump());
    }
    return value.get<std::string>();
  };
  const auto positive = [&](const char* key) {
    const Json& value = camera.at(key);
    if (!value.is_number() || !(value.get<double>() > 0) || !std::isfinite(value.get<double>())) {
      fail(std::string("key \"") + key + "\": expected a number > 0, found " + value.dump());
    }
    return value.get<double>();
  };
  if (camera.contains("pixel_format")) {
    settings.pixelFormat = text("pixel_format");
  }
  if (camera.contains("exposure_us")) {
    settings.exposureUs = positive("exposure_us");
  }
  if (camera.contains("line_rate_hz")) {
    settings.lineRateHz = positive("line_rate_hz");
  }
  if (camera.contains("frame_rate_hz")) {
    settings.frameRateHz = positive("frame_rate_hz");
  }
  if (camera.contains("trigger_source")) {
    settings.triggerSource = text("trigger_source");
  }
  if (camera.contains("buffers")) {
    const Json& value = camera.at("buffers");
    if (!value.is_number_integer() || value.get<std::int64_t>() < 2 ||
        value.get<std::int64_t>() > 4096) {
      fail("key \"buffers\": expected a whole number in [2, 4096], found " + value.dump());
    }
    settings.buffers = value.get<int>();
  }
  if (camera.contains("features")) {
    const Json& features = camera.at("features");
    if (!features.is_object()) {
      fail("key \"features\": expected an object {\"Name\": value, ...}, found " + features.dump());
    }
    for (const auto& [feature, value] : features.items()) {
      acquire::FeatureValue typed;
      if (value.is_boolean()) {
        typed.kind = acquire::FeatureValue::Kind::Boolean;
        typed.boolean = value.get<bool>();
      } else if (value.is_number()) {
        typed.number = value.get<double>();
      } else if (value.is_string()) {
        typed.kind = acquire::FeatureValue::Kind::Text;
        typed.text = value.get<std::string>();
      } else {
        fail("feature \"" + feature + "\": expected a number, true/false or a string, found " +
             value.dump());
      }
      settings.features.emplace_back(feature, std::move(typed));
    }
  }
  return settings;
}

// A whole number in [1, limit] for Width or Height.
int cameraSize(const Json& root, const char* key, int limit, const std::string& name) {
  const Json& value = root.at(key);
  const double number = value.is_number() ? value.get<double>() : NAN;
  if (!(number >= 1 && number <= limit && number == std::floor(number))) {
    throw SourceError(name + ": key \"" + key + "\": expected a whole number in [1, " +
                      std::to_string(limit) + "], found " + value.dump());
  }
  return static_cast<int>(number);
}

}  // namespace

GenicamDescription parseGenicamDescription(const std::string& json, const std::string& name,
                                           const std::filesystem::path& folder) {
  Json root;
  try {
    root = Json::parse(json);
  } catch (const Json::exception& e) {
    throw SourceError(name + ": not valid JSON (" + e.what() + ")");
  }
  if (!root.is_object()) {
    throw SourceError(name + ": expected a JSON object {\"wavelength_first_m\": ..., ...}");
  }
  GenicamDescription description;
  description.name = name;
  description.folder = folder;
  if (root.contains("camera")) {
    description.camera = cameraSettings(root.at("camera"), name);
    root.erase("camera");
  }
  for (const char* key : {"bit_depth", "header_bytes", "sample_format"}) {
    if (root.contains(key)) {
      throw SourceError(name + ": key \"" + key +
                        "\" is not for a camera (the pixel format says how samples are stored)");
    }
  }
  if (root.contains("samples")) {
    description.camera.width = cameraSize(root, "samples", 65536, name);
  }
  if (root.contains("ascans")) {
    description.camera.height = cameraSize(root, "ascans", 1 << 20, name);
  }
  description.geometryJson = root.dump();
  return description;
}

GenicamDescription readGenicamDescription(const std::string& text) {
  if (!text.empty() && text.front() == '{') {
    return parseGenicamDescription(text, "the camera's description",
                                   std::filesystem::current_path());
  }
  std::ifstream file(text);
  if (!file) {
    throw SourceError(text + ": cannot open the camera's description (" + std::strerror(errno) +
                      ")");
  }
  std::stringstream contents;
  contents << file.rdbuf();
  const std::filesystem::path path(text);
  return parseGenicamDescription(contents.str(), path.filename().string(),
                                 path.has_parent_path() ? path.parent_path() : ".");
}

GenicamSource::GenicamSource(const std::string& cameraId, GenicamDescription description)
    : cameraId_(cameraId), settings_(std::move(description)) {
  openCamera();
  Json geometry = Json::parse(settings_.geometryJson);
  geometry["samples"] = camera_->width();
  geometry["ascans"] = camera_->height();
  geometry["bit_depth"] = acquire::bitsPerPixel(pixelFormat_) <= 12 ? 12 : 16;
  try {
    const RawSpectraDescription parsed =
        parseRawSpectraDescription(geometry.dump(), settings_.name, settings_.folder);
    acquisition_ = parsed.acquisition;
    dispersion_ = parsed.dispersion;
  } catch (const RawSpectraError& e) {
    throw SourceError(e.what());
  }
  description_ = "camera " + camera_->describe() + ", " + pixelFormat_ + ", " +
                 std::to_string(acquisition_.ascans) + " A-scans of " +
                 std::to_string(acquisition_.samples) + " samples per B-scan";
}

GenicamSource::~GenicamSource() {
  stopAcquisition();
}

void GenicamSource::openCamera() {
  camera_.reset();
  auto camera = std::make_unique<acquire::GenicamCamera>(cameraId_);
  camera->configure(settings_.camera);
  const std::string format = camera->pixelFormat();
  const int bytes = acquire::bytesPerPixel(format);
  if (bytes == 0) {
    throw SourceError("GenICam camera '" + camera->id() + "': pixel format " + format +
                      ": Cineflow reads Mono8, Mono10, Mono12 and Mono16 (unpacked); set "
                      "\"camera\": {\"pixel_format\": ...} in the description");
  }
  const std::size_t imageBytes = static_cast<std::size_t>(camera->width()) *
                                 static_cast<std::size_t>(camera->height()) *
                                 static_cast<std::size_t>(bytes);
  if (!pixelFormat_.empty() &&
      (format != pixelFormat_ || imageBytes != imageBytes_ ||
       camera->width() != acquisition_.samples || camera->height() != acquisition_.ascans)) {
    throw SourceError("GenICam camera '" + camera->id() + "' now makes " +
                      std::to_string(camera->width()) + " x " + std::to_string(camera->height()) +
                      " " + format + " buffers, not the " + std::to_string(acquisition_.samples) +
                      " x " + std::to_string(acquisition_.ascans) + " " + pixelFormat_ +
                      " this source was opened for: open it again");
  }
  if (camera->payloadBytes() < imageBytes) {
    throw SourceError("GenICam camera '" + camera->id() + "': its buffers hold " +
                      std::to_string(camera->payloadBytes()) + " bytes, less than one " +
                      std::to_string(camera->width()) + " x " + std::to_string(camera->height()) +
                      " " + format + " image (" + std::to_string(imageBytes) + ")");
  }
  pixelFormat_ = format;
  imageBytes_ = imageBytes;
  cameraId_ = camera->id();  // "" (the first camera) becomes that camera: reconnect to it
  camera_ = std::move(camera);
}

void GenicamSource::startAcquisition() {
  std::lock_guard lock(mutex_);
  stopping_ = false;
  if (camera_ == nullptr || camera_->controlLost()) {
    openCamera();  // reconnect: the same camera, set up as before
  }
  lastFrameId_ = 0;
  firstFrameId_ = 0;
  lastFrameIdSeen_ = 0;
  position_ = 0;
  lastBufferNs_ = profile::steadyNowNs();
  lastProbeNs_ = 0;
  {
    std::lock_guard statsLock(statsMutex_);
    stats_ = {};
  }
  camera_->start(settings_.camera.buffers);
}

void GenicamSource::stopAcquisition() {
  stopping_ = true;  // ends a readFrame's wait within a poll
  std::lock_guard lock(mutex_);
  if (camera_ != nullptr) {
    camera_->stop();
    std::lock_guard statsLock(statsMutex_);
    stats_ = camera_->statistics();  // the run's last counters
  }
}

bool GenicamSource::noteFrameId(std::uint64_t frameId) {
  if (lastFrameId_ != 0) {
    std::uint64_t missed = 0;
    if (frameId > lastFrameId_) {
      missed = frameId - lastFrameId_ - 1;
    } else if (lastFrameId_ > 0xff00 && frameId < 0x100) {
      missed = (0xffff - lastFrameId_) + (frameId - 1);  // GigE Vision 1's 16-bit ids wrap to 1
    } else {
      return false;  // late (its place passed, counted as a gap then) or repeated
    }
    gaps_ += missed;
    position_ += missed;
  } else {
    firstFrameId_ = frameId;
  }
  lastFrameId_ = frameId;
  lastFrameIdSeen_ = frameId;
  ++position_;
  return true;
}

acquire::GenicamCamera::Buffer GenicamSource::nextWholeBuffer(std::unique_lock<std::mutex>& lock) {
  using std::chrono::milliseconds;
  waiting_ = true;
  struct NotWaiting {
    std::atomic<bool>& flag;
    ~NotWaiting() { flag = false; }
  } notWaiting{waiting_};
  for (;;) {
    if (!lock.owns_lock()) {
      lock.lock();
    }
    if (stopping_ || camera_ == nullptr || !camera_->streaming()) {
      throw acquire::SourceStopped();
    }
    std::optional<acquire::GenicamCamera::Buffer> buffer = camera_->nextBuffer(milliseconds(50));
    if (!buffer) {
      // Quiet for a while (a triggered camera may be): is it still there? At most once a second.
      const std::int64_t now = profile::steadyNowNs();
      const bool probe = now - lastBufferNs_.load() > kQuietNs && now - lastProbeNs_ > kQuietNs;
      if (probe) {
        lastProbeNs_ = now;
      }
      if (camera_->controlLost() || (probe && !camera_->responding())) {
        throw SourceError("GenICam camera '" + cameraId_ + "' stopped answering" +
                          (camera_->controlLost()
                               ? " (another program took its control)"
                               : " (unplugged, powered off or its network down)") +
                          "; the frames acquired so far are kept; start again to reconnect");
      }
      lock.unlock();  // lets a stop in between polls
      continue;
    }
    lastBufferNs_ = profile::steadyNowNs();
    if (!noteFrameId(buffer->frameId())) {
      continue;  // a buffer whose place has passed: already counted lost
    }
    {
      std::lock_guard statsLock(statsMutex_);
      stats_ = camera_->statistics();
    }
    if (!buffer->complete() || buffer->data().size() < imageBytes_) {
      ++failed_;  // lost: its place in the sequence stays
      continue;
    }
    return std::move(*buffer);
  }
}

void GenicamSource::readFrame(std::uint64_t /*index*/, std::span<std::byte> dst,
                              acquire::SliceInfo& slice) {
  std::unique_lock lock(mutex_);
  const acquire::GenicamCamera::Buffer buffer = nextWholeBuffer(lock);
  const std::span<const std::byte> image = buffer.data().first(imageBytes_);
  if (acquire::bytesPerPixel(pixelFormat_) == 2) {
    std::memcpy(dst.data(), image.data(), std::min(dst.size(), image.size()));
  } else {  // Mono8: widened, the counts unchanged
    auto* out = reinterpret_cast<std::uint16_t*>(dst.data());
    const std::size_t count = std::min(dst.size() / 2, image.size());
    for (std::size_t i = 0; i < count; ++i) {
      out[i] = static_cast<std::uint16_t>(image[i]);
    }
  }
  const int perVolume = acquisition_.bscansPerVolume;
  if (perVolume > 0) {
    slice.sliceIndex = static_cast<int>((position_ - 1) % static_cast<std::uint64_t>(perVolume));
    slice.elevationM = (slice.sliceIndex - 0.5 * (perVolume - 1)) * acquisition_.elevationStepM;
  } else {
    slice = {};
  }
}

void GenicamSource::skipFrame(std::uint64_t /*index*/) {
  std::unique_lock lock(mutex_);
  nextWholeBuffer(lock);  // taken from the camera, queued again unread
}

acquire::LostFrames GenicamSource::lostFramesByKind() const {
  return {.sequenceGaps = gaps_.load(), .incomplete = failed_.load()};
}

acquire::CameraStreamStatistics GenicamSource::cameraStatistics() const {
  std::lock_guard lock(statsMutex_);
  return stats_;
}

std::vector<std::pair<std::string, std::uint64_t>> GenicamSource::transportCounters() const {
  const acquire::CameraStreamStatistics stats = cameraStatistics();
  return {{"buffers", stats.completed},
          {"incomplete", stats.failed},
          {"underruns", stats.underruns},
          {"packets resent", stats.resentPackets}};
}

std::string GenicamSource::liveStatus() const {
  if (!waiting_) {
    return {};
  }
  const double quiet = static_cast<double>(profile::steadyNowNs() - lastBufferNs_.load()) * 1e-9;
  if (quiet < kQuietNs * 1e-9) {
    return {};
  }
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.0f", quiet);
  return "waiting for camera '" + cameraId_ + "': no buffer for " + seconds + " s" +
         (settings_.camera.triggerSource.empty() || settings_.camera.triggerSource == "Off"
              ? std::string()
              : " (triggered by " + settings_.camera.triggerSource + ")");
}

}  // namespace cineflow::oct

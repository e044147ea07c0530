#include "acquire/genicam_camera.hpp"

#include <arv.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <mutex>

namespace cineflow::acquire {
namespace {

ArvCamera* asCamera(void* camera) {
  return static_cast<ArvCamera*>(camera);
}
ArvStream* asStream(void* stream) {
  return static_cast<ArvStream*>(stream);
}

// A GError's message, then the error freed.
std::string takeMessage(GError* error) {
  std::string message = error != nullptr && error->message != nullptr ? error->message : "failed";
  g_clear_error(&error);
  return message;
}

// Aravis keeps one device list per process; its update is not thread-safe.
std::mutex& discoveryMutex() {
  static std::mutex mutex;
  return mutex;
}

std::string text(const char* value) {
  return value != nullptr ? value : "";
}

std::string availableText(const std::vector<CameraInfo>& cameras) {
  if (cameras.empty()) {
    return "no camera was found (is it powered, on this network, and not open in another "
           "program?)";
  }
  std::string list;
  for (const CameraInfo& camera : cameras) {
    list += (list.empty() ? "" : ", ") + camera.id;
  }
  return "the cameras found are " + list;
}

std::string bufferProblem(ArvBufferStatus status) {
  switch (status) {
    case ARV_BUFFER_STATUS_SUCCESS:
      return {};
    case ARV_BUFFER_STATUS_MISSING_PACKETS:
      return "missing packets";
    case ARV_BUFFER_STATUS_WRONG_PACKET_ID:
      return "wrong packet id";
    case ARV_BUFFER_STATUS_SIZE_MISMATCH:
      return "the image is larger than the buffer";
    case ARV_BUFFER_STATUS_FILLING:
      return "still filling";
    case ARV_BUFFER_STATUS_ABORTED:
      return "aborted";
    case ARV_BUFFER_STATUS_TIMEOUT:
      return "timed out";
    default:
      return "failed (status " + std::to_string(static_cast<int>(status)) + ")";
  }
}

// A stream counter by name; 0 where this transport has none. Read with every buffer: no
// allocation.
std::uint64_t streamInfo(ArvStream* stream, const char* name) {
  const guint count = arv_stream_get_n_infos(stream);
  for (guint i = 0; i < count; ++i) {
    const char* info = arv_stream_get_info_name(stream, i);
    if (info != nullptr && std::strcmp(info, name) == 0 &&
        arv_stream_get_info_type(stream, i) == G_TYPE_UINT64) {
      return arv_stream_get_info_uint64(stream, i);
    }
  }
  return 0;
}

}  // namespace

int bytesPerPixel(const std::string& pixelFormat) {
  if (pixelFormat == "Mono8") {
    return 1;
  }
  if (pixelFormat == "Mono10" || pixelFormat == "Mono12" || pixelFormat == "Mono16") {
    return 2;
  }
  return 0;
}

int bitsPerPixel(const std::string& pixelFormat) {
  if (bytesPerPixel(pixelFormat) == 0) {
    return 0;
  }
  return std::stoi(pixelFormat.substr(4));
}

std::vector<CameraInfo> listCameras() {
  std::lock_guard lock(discoveryMutex());
  arv_update_device_list();
  std::vector<CameraInfo> cameras;
  const unsigned count = arv_get_n_devices();
  for (unsigned i = 0; i < count; ++i) {
    cameras.push_back({text(arv_get_device_id(i)), text(arv_get_device_vendor(i)),
                       text(arv_get_device_model(i)), text(arv_get_device_serial_nbr(i)),
                       text(arv_get_device_address(i)), text(arv_get_device_protocol(i))});
  }
  return cameras;
}

GenicamCamera::GenicamCamera(const std::string& id) : id_(id) {
  if (id_.empty()) {  // the first camera, named as the list names it (for reopening it)
    const std::vector<CameraInfo> cameras = listCameras();
    if (cameras.empty()) {
      throw SourceError("GenICam camera: " + availableText(cameras));
    }
    id_ = cameras.front().id;
  }
  GError* error = nullptr;
  {
    std::lock_guard lock(discoveryMutex());
    camera_ = arv_camera_new(id_.c_str(), &error);
  }
  if (camera_ == nullptr) {
    const std::string why = takeMessage(error);
    throw SourceError("GenICam camera '" + id_ + "': cannot open it (" + why + "); " +
                      availableText(listCameras()));
  }
  ArvCamera* camera = asCamera(camera_);
  model_ = text(arv_camera_get_vendor_name(camera, nullptr)) + " " +
           text(arv_camera_get_model_name(camera, nullptr));
  if (ARV_IS_GV_DEVICE(arv_camera_get_device(camera))) {
    GSocketAddress* socket =
        arv_gv_device_get_device_address(ARV_GV_DEVICE(arv_camera_get_device(camera)));
    if (socket != nullptr && G_IS_INET_SOCKET_ADDRESS(socket)) {
      GInetAddress* address = g_inet_socket_address_get_address(G_INET_SOCKET_ADDRESS(socket));
      gchar* textAddress = g_inet_address_to_string(address);
      address_ = text(textAddress);
      g_free(textAddress);
      // With CAP_NET_RAW Aravis reads the stream from a packet socket, which sees nothing on
      // the loopback interface (a simulator on this computer): the plain socket there.
      if (g_inet_address_get_is_loopback(address)) {
        arv_camera_gv_set_stream_options(camera, ARV_GV_STREAM_OPTION_PACKET_SOCKET_DISABLED);
      }
    }
  }
  controlLostHandler_ = g_signal_connect(arv_camera_get_device(camera), "control-lost",
                                         G_CALLBACK(&GenicamCamera::onControlLost), this);
}

GenicamCamera::~GenicamCamera() {
  stop();
  if (camera_ != nullptr) {
    if (controlLostHandler_ != 0) {
      g_signal_handler_disconnect(arv_camera_get_device(asCamera(camera_)), controlLostHandler_);
    }
    g_object_unref(camera_);
  }
}

void GenicamCamera::onControlLost(void* /*device*/, void* self) {
  static_cast<GenicamCamera*>(self)->controlLost_.store(true);
}

void GenicamCamera::fail(const std::string& what, const std::string& why) const {
  throw SourceError("GenICam camera '" + id_ + "': " + what + ": " + why);
}

void GenicamCamera::requireFeature(const std::string& name) const {
  GError* error = nullptr;
  const bool available = arv_camera_is_feature_available(asCamera(camera_), name.c_str(), &error);
  if (error != nullptr || !available) {
    const std::string why = error != nullptr ? takeMessage(error) : std::string();
    fail("feature " + name, "the camera " +
                                std::string(available ? "refuses it" : "does not have it") +
                                (why.empty() ? std::string() : " (" + why + ")"));
  }
}

void GenicamCamera::setFeature(const std::string& name, const FeatureValue& value) {
  requireFeature(name);
  ArvCamera* camera = asCamera(camera_);
  ArvGcNode* node = arv_device_get_feature(arv_camera_get_device(camera), name.c_str());
  GError* error = nullptr;
  std::string shown;
  switch (value.kind) {
    case FeatureValue::Kind::Boolean:
      shown = value.boolean ? "true" : "false";
      arv_camera_set_boolean(camera, name.c_str(), value.boolean ? TRUE : FALSE, &error);
      break;
    case FeatureValue::Kind::Text:
      shown = "\"" + value.text + "\"";
      arv_camera_set_string(camera, name.c_str(), value.text.c_str(), &error);
      break;
    case FeatureValue::Kind::Number:
      shown = numberText(value.number);
      if (ARV_IS_GC_FLOAT(node)) {
        arv_camera_set_float(camera, name.c_str(), value.number, &error);
      } else if (value.number == std::floor(value.number)) {
        arv_camera_set_integer(camera, name.c_str(), static_cast<gint64>(value.number), &error);
      } else {
        fail("feature " + name, "is a whole number, not " + shown);
      }
      break;
  }
  if (error != nullptr) {
    fail("feature " + name, "the camera refuses " + shown + " (" + takeMessage(error) + ")");
  }
}

void GenicamCamera::configure(const CameraSettings& settings) {
  ArvCamera* camera = asCamera(camera_);
  GError* error = nullptr;
  if (!settings.pixelFormat.empty()) {
    if (bytesPerPixel(settings.pixelFormat) == 0) {
      fail("pixel format " + settings.pixelFormat,
           "Cineflow reads Mono8, Mono10, Mono12 and Mono16 (unpacked); choose one of them");
    }
    requireFeature("PixelFormat");
    if (!arv_camera_is_enumeration_entry_available(camera, "PixelFormat",
                                                   settings.pixelFormat.c_str(), nullptr)) {
      guint count = 0;
      const char** formats =
          arv_camera_dup_available_pixel_formats_as_strings(camera, &count, nullptr);
      std::string list;
      for (guint i = 0; i < count; ++i) {
        list += (list.empty() ? "" : ", ") + text(formats[i]);
      }
      g_free(formats);
      fail("pixel format " + settings.pixelFormat, "the camera offers " + list);
    }
    setFeature("PixelFormat", {FeatureValue::Kind::Text, 0, false, settings.pixelFormat});
  }
  if (settings.width > 0) {
    setFeature("Width", {FeatureValue::Kind::Number, double(settings.width), false, {}});
  }
  if (settings.height > 0) {
    setFeature("Height", {FeatureValue::Kind::Number, double(settings.height), false, {}});
  }
  if (settings.exposureUs) {
    const bool modern = arv_camera_is_feature_available(camera, "ExposureTime", nullptr);
    setFeature(modern ? "ExposureTime" : "ExposureTimeAbs",
               {FeatureValue::Kind::Number, *settings.exposureUs, false, {}});
  }
  if (settings.lineRateHz) {
    if (arv_camera_is_feature_available(camera, "AcquisitionLineRateEnable", nullptr)) {
      setFeature("AcquisitionLineRateEnable", {FeatureValue::Kind::Boolean, 0, true, {}});
    }
    setFeature("AcquisitionLineRate",
               {FeatureValue::Kind::Number, *settings.lineRateHz, false, {}});
  }
  if (settings.frameRateHz) {
    requireFeature("AcquisitionFrameRate");
    arv_camera_set_frame_rate(camera, *settings.frameRateHz, &error);
    if (error != nullptr) {
      fail("feature AcquisitionFrameRate", "the camera refuses " +
                                               numberText(*settings.frameRateHz) + " (" +
                                               takeMessage(error) + ")");
    }
  }
  if (settings.triggerSource == "Off") {
    arv_camera_clear_triggers(camera, &error);
    if (error != nullptr) {
      fail("trigger", "cannot turn the triggers off (" + takeMessage(error) + ")");
    }
  } else if (!settings.triggerSource.empty()) {
    requireFeature("TriggerSource");
    arv_camera_set_trigger(camera, settings.triggerSource.c_str(), &error);
    if (error != nullptr) {
      fail("feature TriggerSource",
           "the camera refuses \"" + settings.triggerSource + "\" (" + takeMessage(error) + ")");
    }
  }
  for (const auto& [name, value] : settings.features) {
    setFeature(name, value);
  }
  // Continuous: the camera streams until stopped.
  if (arv_camera_is_feature_available(camera, "AcquisitionMode", nullptr)) {
    arv_camera_set_acquisition_mode(camera, ARV_ACQUISITION_MODE_CONTINUOUS, &error);
    if (error != nullptr) {
      fail("feature AcquisitionMode", "the camera refuses Continuous (" + takeMessage(error) + ")");
    }
  }
}

std::string GenicamCamera::pixelFormat() const {
  return text(arv_camera_get_pixel_format_as_string(asCamera(camera_), nullptr));
}

int GenicamCamera::width() const {
  return static_cast<int>(arv_camera_get_integer(asCamera(camera_), "Width", nullptr));
}

int GenicamCamera::height() const {
  return static_cast<int>(arv_camera_get_integer(asCamera(camera_), "Height", nullptr));
}

CameraCapabilities GenicamCamera::capabilities() const {
  ArvCamera* camera = asCamera(camera_);
  CameraCapabilities offered;
  const auto strings = [&](const char* feature, bool pixelFormats) {
    std::vector<std::string> list;
    guint count = 0;
    const char** entries =
        pixelFormats
            ? arv_camera_dup_available_pixel_formats_as_strings(camera, &count, nullptr)
            : arv_camera_dup_available_enumerations_as_strings(camera, feature, &count, nullptr);
    for (guint i = 0; entries != nullptr && i < count; ++i) {
      list.push_back(text(entries[i]));
    }
    g_free(entries);
    return list;
  };
  const auto has = [&](const char* feature) {
    return arv_camera_is_feature_available(camera, feature, nullptr) != FALSE;
  };
  offered.pixelFormats = strings("PixelFormat", true);
  offered.pixelFormat = pixelFormat();
  offered.width = width();
  offered.height = height();
  gint64 low = 0;
  arv_camera_get_integer_bounds(camera, "Width", &low, &offered.widthMax, nullptr);
  arv_camera_get_integer_bounds(camera, "Height", &low, &offered.heightMax, nullptr);
  offered.exposure = has("ExposureTime") || has("ExposureTimeAbs");
  offered.lineRate = has("AcquisitionLineRate");
  offered.frameRate = has("AcquisitionFrameRate");
  if (has("TriggerSource")) {
    offered.triggerSources = strings("TriggerSource", false);
  }
  return offered;
}

std::size_t GenicamCamera::payloadBytes() const {
  return arv_camera_get_payload(asCamera(camera_), nullptr);
}

void GenicamCamera::start(int buffers) {
  if (stream_ != nullptr) {
    return;
  }
  ArvCamera* camera = asCamera(camera_);
  GError* error = nullptr;
  ArvStream* stream = arv_camera_create_stream(camera, nullptr, nullptr, &error);
  if (stream == nullptr) {
    fail("stream", "cannot open it (" + takeMessage(error) + ")");
  }
  if (ARV_IS_GV_STREAM(stream)) {
    // A receive buffer sized to a whole frame: a burst of packets while this computer is busy
    // (the chain on every core) waits in the socket instead of being lost and resent.
    g_object_set(stream, "socket-buffer", ARV_GV_STREAM_SOCKET_BUFFER_AUTO, nullptr);
  }
  const std::size_t payload = payloadBytes();
  for (int i = 0; i < std::max(buffers, 2); ++i) {
    arv_stream_push_buffer(stream, arv_buffer_new_allocate(payload));
  }
  stream_ = stream;
  lastStatistics_ = {};
  arv_camera_start_acquisition(camera, &error);
  if (error != nullptr) {
    const std::string why = takeMessage(error);
    stop();
    fail("start", why);
  }
}

void GenicamCamera::stop() {
  if (stream_ == nullptr) {
    return;
  }
  lastStatistics_ = statistics();
  // A camera that stopped answering refuses the stop too: nothing more to tell it.
  arv_camera_stop_acquisition(asCamera(camera_), nullptr);
  g_object_unref(stream_);  // joins the stream's thread, frees its buffers
  stream_ = nullptr;
}

bool GenicamCamera::responding() const {
  GError* error = nullptr;
  arv_camera_get_payload(asCamera(camera_), &error);
  if (error != nullptr) {
    g_clear_error(&error);
    return false;
  }
  return true;
}

CameraStreamStatistics GenicamCamera::statistics() const {
  if (stream_ == nullptr) {
    return lastStatistics_;
  }
  ArvStream* stream = asStream(stream_);
  CameraStreamStatistics statistics;
  guint64 completed = 0;
  guint64 failures = 0;
  guint64 underruns = 0;
  arv_stream_get_statistics(stream, &completed, &failures, &underruns);
  statistics.completed = completed;
  statistics.failed = failures;
  statistics.underruns = underruns;
  statistics.resentPackets = streamInfo(stream, "n_resent_packets");
  statistics.missingPackets = streamInfo(stream, "n_missing_packets");
  return statistics;
}

std::string GenicamCamera::describe() const {
  return model_ + " (" + id_ + (address_.empty() ? "" : ", " + address_) + ")";
}

std::optional<GenicamCamera::Buffer> GenicamCamera::nextBuffer(std::chrono::milliseconds timeout) {
  if (stream_ == nullptr) {
    return std::nullopt;
  }
  const auto microseconds = std::chrono::duration_cast<std::chrono::microseconds>(timeout);
  ArvBuffer* buffer =
      arv_stream_timeout_pop_buffer(asStream(stream_), static_cast<guint64>(microseconds.count()));
  if (buffer == nullptr) {
    return std::nullopt;
  }
  return Buffer(stream_, buffer);
}

GenicamCamera::Buffer::Buffer(void* stream, void* buffer) : stream_(stream), buffer_(buffer) {
  g_object_ref(stream_);
  ArvBuffer* arv = static_cast<ArvBuffer*>(buffer_);
  problem_ = bufferProblem(arv_buffer_get_status(arv));
  frameId_ = arv_buffer_get_frame_id(arv);
  if (problem_.empty()) {
    std::size_t size = 0;
    const void* data = arv_buffer_get_data(arv, &size);
    data_ = {static_cast<const std::byte*>(data), size};
  }
}

GenicamCamera::Buffer::Buffer(Buffer&& other) noexcept
    : stream_(std::exchange(other.stream_, nullptr)),
      buffer_(std::exchange(other.buffer_, nullptr)),
      data_(other.data_),
      frameId_(other.frameId_),
      problem_(std::move(other.problem_)) {}

GenicamCamera::Buffer::~Buffer() {
  if (buffer_ != nullptr) {
    arv_stream_push_buffer(asStream(stream_), static_cast<ArvBuffer*>(buffer_));  // queued again
  }
  if (stream_ != nullptr) {
    g_object_unref(stream_);
  }
}

}  // namespace cineflow::acquire

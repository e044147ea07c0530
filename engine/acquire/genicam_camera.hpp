#pragma once
// GenicamCamera: one GenICam camera (GigE Vision or USB3 Vision) through Aravis 0.8, as a
// modality's source uses it (oct/genicam_source.hpp): discover, configure the features a line-scan
// spectrometer needs, stream buffers, count what the stream lost. Modality-neutral: a buffer is
// `height` lines of `width` pixels in one of the monochrome formats below.
//
// Pixel formats Cineflow reads: Mono8 (one byte per pixel) and Mono10, Mono12, Mono16 (two bytes,
// little-endian, the value in the low bits). Packed and colour formats are refused by name before
// anything starts.
//
// Faults are SourceError messages naming the camera and, where there is one, the feature: a
// camera that is not found (with the cameras that are), a feature it lacks, a value it refuses.
// A camera that stops answering (unplugged, powered off, its simulator killed) fails
// responding(); one another program took over reports controlLost(). The owner reopens it (a new
// GenicamCamera) to reconnect.
//
// Threads: one thread configures, starts and stops; nextBuffer() is the acquisition thread's;
// controlLost() and statistics() may be read from any thread while buffers stream.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "acquire/frame_source.hpp"  // SourceError

namespace cineflow::acquire {

// One camera the transport layers found.
struct CameraInfo {
  std::string id;  // what genicam://ID and GenicamCamera(id) take ("Basler-22345678")
  std::string vendor;
  std::string model;
  std::string serial;
  std::string address;   // IP address (GigE Vision) or USB bus position
  std::string protocol;  // "GigEVision", "USB3Vision"
};

// The cameras reachable now (asks every transport layer: about a second on a network).
std::vector<CameraInfo> listCameras();

// A GenICam feature value as a description states it: a number (integer or float features), a
// boolean, or a string (enumerations, strings).
struct FeatureValue {
  enum class Kind { Number, Boolean, Text } kind = Kind::Number;
  double number = 0;
  bool boolean = false;
  std::string text;
};

// What configure() sets, in this order; an unset field leaves the camera's value.
struct CameraSettings {
  std::string pixelFormat;            // "Mono12"; empty: keep
  int width = 0;                      // pixels per line (spectrometer pixels); 0: keep
  int height = 0;                     // lines per buffer (A-scans); 0: keep
  std::optional<double> exposureUs;   // ExposureTime (or ExposureTimeAbs)
  std::optional<double> lineRateHz;   // AcquisitionLineRate (line-scan cameras)
  std::optional<double> frameRateHz;  // AcquisitionFrameRate
  // TriggerSource for FrameStart with TriggerMode On ("Line1", "Software"); "Off": free running
  // (every trigger cleared); empty: keep.
  std::string triggerSource;
  // Any other feature, set last, in order ("Gain", "ReverseX", ...).
  std::vector<std::pair<std::string, FeatureValue>> features;
  int buffers = 32;  // stream buffers queued for the camera (a burst the engine has not taken)
};

// What a camera offers, for `cineflow cameras ID` and the GUI's camera list.
struct CameraCapabilities {
  std::vector<std::string> pixelFormats;  // every format it offers; bytesPerPixel() says which
                                          // Cineflow reads
  std::string pixelFormat;                // the one set now
  int width = 0, height = 0;              // now
  std::int64_t widthMax = 0, heightMax = 0;
  bool exposure = false;   // ExposureTime or ExposureTimeAbs
  bool lineRate = false;   // AcquisitionLineRate
  bool frameRate = false;  // AcquisitionFrameRate
  std::vector<std::string> triggerSources;
};

// The stream's counters since start() (Aravis' own).
struct CameraStreamStatistics {
  std::uint64_t completed = 0;      // buffers filled whole
  std::uint64_t failed = 0;         // buffers that arrived incomplete (missing packets, timeout)
  std::uint64_t underruns = 0;      // frames the camera sent while no buffer was queued
  std::uint64_t resentPackets = 0;  // GigE Vision packets asked for again and received
  std::uint64_t missingPackets = 0;
};

// Whether Cineflow reads this pixel format ("Mono8", "Mono10", "Mono12", "Mono16"), and its
// bytes per pixel (0: not read).
int bytesPerPixel(const std::string& pixelFormat);
// Significant bits of a format Cineflow reads (8, 10, 12, 16).
int bitsPerPixel(const std::string& pixelFormat);

class GenicamCamera {
 public:
  // Opens the camera `id` (as listCameras() names it, or its IP address); "" opens the first one
  // found. Throws SourceError naming the cameras there are when it is not found.
  explicit GenicamCamera(const std::string& id);
  ~GenicamCamera();
  GenicamCamera(const GenicamCamera&) = delete;
  GenicamCamera& operator=(const GenicamCamera&) = delete;

  // Sets `settings` while not streaming. A pixel format Cineflow does not read is refused by name
  // before anything is set; a feature the camera lacks, or a value it refuses, throws SourceError
  // naming the feature and the camera.
  void configure(const CameraSettings& settings);

  // The id it was opened by; for "", the first camera's id as listCameras() names it.
  const std::string& id() const { return id_; }
  std::string pixelFormat() const;
  int width() const;
  int height() const;
  std::size_t payloadBytes() const;  // bytes of one buffer, as the camera states it
  CameraCapabilities capabilities() const;

  // Queues `buffers` buffers of payloadBytes() and starts the camera streaming. Throws SourceError.
  void start(int buffers);
  // Stops streaming and drops the stream's buffers; does nothing when not streaming.
  void stop();
  bool streaming() const { return stream_ != nullptr; }

  // A filled buffer, lent until destroyed (it is then queued for the camera again).
  class Buffer {
   public:
    Buffer(Buffer&& other) noexcept;
    Buffer& operator=(Buffer&&) = delete;
    ~Buffer();
    // Whether the buffer arrived whole; when not, what went wrong ("missing packets").
    bool complete() const { return problem_.empty(); }
    const std::string& problem() const { return problem_; }
    std::uint64_t frameId() const { return frameId_; }  // the camera's block id (1, 2, ...)
    std::span<const std::byte> data() const { return data_; }

   private:
    friend class GenicamCamera;
    Buffer(void* stream, void* buffer);
    void* stream_ = nullptr;  // ArvStream*, referenced
    void* buffer_ = nullptr;  // ArvBuffer*
    std::span<const std::byte> data_;
    std::uint64_t frameId_ = 0;
    std::string problem_;
  };
  // The next buffer, waiting up to `timeout`; nullopt when none came in that time.
  std::optional<Buffer> nextBuffer(std::chrono::milliseconds timeout);

  // Whether another program took the camera's control since it opened (any thread).
  bool controlLost() const { return controlLost_.load(); }
  // Whether the camera answers a register read now (a GigE Vision camera gone from the network
  // takes the transport's retries, about a second, to say no). Aravis' heartbeat notices a
  // camera taken over, not one that went away: a source that hears nothing asks this.
  bool responding() const;
  CameraStreamStatistics statistics() const;  // zeros before the first start()
  std::string describe() const;               // "Aravis Fake (Aravis-Fake-GV01, 127.0.0.1)"

 private:
  static void onControlLost(void* device, void* self);
  [[noreturn]] void fail(const std::string& what, const std::string& why) const;
  void setFeature(const std::string& name, const FeatureValue& value);
  void requireFeature(const std::string& name) const;

  void* camera_ = nullptr;  // ArvCamera*
  void* stream_ = nullptr;  // ArvStream* while streaming
  unsigned long controlLostHandler_ = 0;
  std::string id_;
  std::string model_;
  std::string address_;
  std::atomic<bool> controlLost_{false};
  CameraStreamStatistics lastStatistics_;  // of the last stream, kept after stop()
};

}  // namespace cineflow::acquire

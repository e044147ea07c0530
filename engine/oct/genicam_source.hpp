#pragma once
// GenicamSource: spectral-domain OCT B-scans from a spectrometer's line-scan camera read through
// GenICam (acquire/genicam_camera.hpp). One camera buffer is one B-scan: its width is the
// spectrometer's pixels (samples per A-scan), its height the A-scans of the B-scan, flyback
// included. The OCT geometry comes from a description, the raw-spectra import's keys
// (raw_spectra_import.hpp) with these differences:
//
//   samples, ascans   optional: set on the camera as Width and Height; absent, the camera's own
//   bit_depth         not given: it follows from the pixel format (Mono8, 10, 12: 12; Mono16: 16)
//   header_bytes, sample_format   not for a camera
//   camera            optional object, the features to set before streaming:
//     pixel_format      "Mono8", "Mono10", "Mono12" or "Mono16"
//     exposure_us       ExposureTime
//     line_rate_hz      AcquisitionLineRate (line-scan cameras)
//     frame_rate_hz     AcquisitionFrameRate (area cameras: B-scans per second)
//     trigger_source    "Line1", "Software", ...: each buffer waits for it; "Off": free running
//     buffers           stream buffers queued for the camera (default 32, at least 2)
//     features          {"Name": value, ...}: any other feature, set last in this order
//
// Samples are copied once, from the camera's buffer into the engine's host slot (Mono8 widened to
// uint16 on the way). A buffer that arrives incomplete and a gap in the camera's frame ids are
// lost frames (lostFramesByKind(): incomplete, sequenceGaps); they keep their place in
// the sequence, so volumes and bidirectional scans stay in step. A camera that stops answering
// ends the run with a SourceError saying so (the frames imaged so far stay); the next
// startAcquisition() opens it again by its id, which is how the operator reconnects.

#include <atomic>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>

#include "acquire/genicam_camera.hpp"
#include "oct/oct_source.hpp"

namespace cineflow::oct {

struct GenicamDescription {
  acquire::CameraSettings camera;
  // The description's geometry keys, checked when the camera's Width, Height and pixel format are
  // known (samples, ascans and bit_depth then filled in).
  std::string geometryJson;
  std::string name;              // the description's file name, or "the description"
  std::filesystem::path folder;  // where a relative wavelength_file lies
};

// Parses a description (a JSON object as above). Throws SourceError naming `name` and the key.
GenicamDescription parseGenicamDescription(const std::string& json, const std::string& name,
                                           const std::filesystem::path& folder);
// `text` is a JSON object (starts with '{') or the path of a file holding one.
GenicamDescription readGenicamDescription(const std::string& text);

class GenicamSource final : public OctSource {
 public:
  // Opens camera `cameraId` ("" for the first found), sets its features and checks the geometry.
  // Throws SourceError naming the camera, the feature or the description's key.
  GenicamSource(const std::string& cameraId, GenicamDescription description);
  ~GenicamSource() override;

  const OctAcquisition& acquisition() const override { return acquisition_; }
  std::optional<OctDispersion> recordedDispersion() const override { return dispersion_; }
  double frameRateHz() const override { return 0; }  // the camera paces
  std::uint64_t frameCount() const override { return ~std::uint64_t{0}; }
  void readFrame(std::uint64_t index, std::span<std::byte> dst, acquire::SliceInfo& slice) override;
  void skipFrame(std::uint64_t index) override;
  void startAcquisition() override;
  void stopAcquisition() override;
  std::uint64_t lostFrames() const override { return lostFramesByKind().ofThisStream(); }
  acquire::LostFrames lostFramesByKind() const override;
  std::string liveStatus() const override;
  std::string describe() const override { return description_; }

  // The stream's counters (Aravis'), as of the last buffer, for the status bar and stats().
  acquire::CameraStreamStatistics cameraStatistics() const;
  // The same, named: "buffers" (completed), "incomplete", "underruns", "packets resent".
  std::vector<std::pair<std::string, std::uint64_t>> transportCounters() const override;
  // The camera's frame ids of this run's first and latest buffers (0: none yet). Any thread.
  std::uint64_t firstFrameId() const { return firstFrameId_; }
  std::uint64_t lastFrameId() const { return lastFrameIdSeen_; }
  const std::string& pixelFormat() const { return pixelFormat_; }

  // How long without a buffer before liveStatus() says so and the camera is asked whether it is
  // still there (then once a second).
  static constexpr std::int64_t kQuietNs = 1'000'000'000;

 private:
  // The next whole buffer (counting incomplete ones and frame-id gaps as lost), or throws
  // SourceStopped / SourceError (the camera stopped answering). Holds mutex_ while it waits.
  acquire::GenicamCamera::Buffer nextWholeBuffer(std::unique_lock<std::mutex>& lock);
  // Counts the ids skipped before `frameId`; false for a buffer that comes after its place
  // (already counted as a gap), which is left out.
  bool noteFrameId(std::uint64_t frameId);
  void openCamera();  // (again): configure, check it still makes these frames

  std::string cameraId_;
  GenicamDescription settings_;
  OctAcquisition acquisition_;
  std::optional<OctDispersion> dispersion_;
  std::string pixelFormat_;
  std::size_t imageBytes_ = 0;  // width x height x bytes per pixel
  std::string description_;

  mutable std::mutex mutex_;  // the camera: readFrame's wait against stop and reopen
  std::unique_ptr<acquire::GenicamCamera> camera_;
  std::atomic<bool> stopping_{false};
  std::uint64_t lastFrameId_ = 0;  // 0: none yet this run
  std::atomic<std::uint64_t> firstFrameId_{0}, lastFrameIdSeen_{0};
  std::uint64_t position_ = 0;  // camera frames since start (delivered and lost)
  std::atomic<std::uint64_t> gaps_{0}, failed_{0};
  std::atomic<std::int64_t> lastBufferNs_{0};  // steady clock: the last buffer, or the start
  std::int64_t lastProbeNs_ = 0;               // when responding() was last asked
  std::atomic<bool> waiting_{false};           // a readFrame is waiting for a buffer
  mutable std::mutex statsMutex_;              // stats_, refreshed with every buffer
  acquire::CameraStreamStatistics stats_;
};

}  // namespace cineflow::oct

#pragma once
// PluginSource: plane-wave channel data from a source plugin (acquire/plugin_library.hpp,
// include/cineflow/source_plugin.h). The plugin writes each frame straight into the ring slot
// the engine hands over. Everything the plugin says is checked: a stream description Cineflow
// cannot image is refused naming the plugin and the field, and a frame the plugin fails to
// deliver, or delivers at the wrong size, stops the acquisition with a SourceError naming it.

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "acquire/plugin_library.hpp"
#include "ultrasound/ultrasound_source.hpp"

namespace cineflow::ultrasound {

class PluginSource final : public UltrasoundSource {
 public:
  // Opens one of `plugin`'s sources with `parameters` (a JSON object of name: value; "{}" for
  // the defaults). Throws SourceError naming the plugin and why.
  PluginSource(std::shared_ptr<acquire::PluginLibrary> plugin, const std::string& parameters);
  ~PluginSource() override;
  PluginSource(const PluginSource&) = delete;
  PluginSource& operator=(const PluginSource&) = delete;

  const acquire::AcquisitionParams& params() const override { return params_; }
  acquire::SampleType sampleType() const override { return sampleType_; }
  double frameRateHz() const override { return frameRateHz_; }
  // A live stream (the plugin's frame_count 0) never repeats: the largest count there is.
  std::uint64_t frameCount() const override { return frameCount_; }
  void readFrame(std::uint64_t index, std::span<std::byte> dst, acquire::SliceInfo& slice) override;
  // The plugin's start and stop (either may be absent). A failing start throws SourceError with
  // the plugin's reason; stop runs once per successful start. A read_frame that fails after stop
  // is the end of the run, not an error (SourceStopped).
  void startAcquisition() override;
  void stopAcquisition() override;
  // Reads the frame into a buffer of its own and lets it go (Drop with no free host slot).
  void skipFrame(std::uint64_t index) override;
  std::string describe() const override { return description_; }
  // Frames the plugin said it lost (its read_frame's `lost`), summed.
  std::uint64_t lostFrames() const override { return lost_; }
  // While a read_frame has waited longer than kStallSeconds (a scanner that stopped sending, a
  // plugin stuck in its driver): "no frame from source plugin 'Lab' for 3.2 s"; "" otherwise.
  std::string liveStatus() const override;
  static constexpr double kStallSeconds = 1.0;

 private:
  std::shared_ptr<acquire::PluginLibrary> plugin_;  // outlives source_: the library stays loaded
  cf_source* source_ = nullptr;
  acquire::AcquisitionParams params_;
  acquire::SampleType sampleType_ = acquire::SampleType::Int16;
  double frameRateHz_ = 0;
  std::uint64_t frameCount_ = 0;
  std::string description_;
  std::atomic<std::uint64_t> lost_{0};
  std::vector<std::byte> scratch_;  // skipFrame's destination, sized at start
  std::atomic<bool> started_{false};
  std::atomic<bool> stopping_{false};
  // When the read_frame in progress began (steady clock, ns); 0 while none runs.
  std::atomic<std::int64_t> readingSinceNs_{0};
};

}  // namespace cineflow::ultrasound

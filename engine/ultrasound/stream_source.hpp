#pragma once
// NetworkSource: plane-wave channel data pushed over ZeroMQ (acquire/stream_feed.hpp). The
// header's fields are a source plugin's cf_stream fields by the same names
// (docs/plugins-and-streaming.md: live frames over the network"), checked by the same rules
// (stream_description.hpp). Frames arrive as the sender acquires them: the source is endless and
// unpaced (frameRateHz() 0), gaps in the sender's sequence count as lost frames, and a silent or
// finished sender is shown as waiting (or ends the source, endWithSender).
//
// A header without "fractional_bandwidth" has the band measured from the stream's first frame,
// as a recording's from its first frame's echoes (ultrasound/echo_band.hpp): the source waits for
// that frame when it opens, where the wait is shown and can be abandoned (ProgressFn; the GUI
// opens on its own thread), because the chain is configured from the band before any run. The
// first run then images that frame first.

#include <memory>
#include <string>
#include <vector>

#include "acquire/stream_feed.hpp"
#include "ultrasound/stream_description.hpp"
#include "ultrasound/ultrasound_source.hpp"

namespace cineflow::ultrasound {

class NetworkSource final : public UltrasoundSource {
 public:
  // Takes an open feed whose header says "modality": "ultrasound"; `progress` is told about the
  // wait for a first frame to measure the band from (may throw to abandon it). Throws SourceError
  // naming the endpoint and the first bad field.
  explicit NetworkSource(std::unique_ptr<acquire::StreamFeed> feed,
                         const acquire::ProgressFn& progress = {});

  const acquire::AcquisitionParams& params() const override { return stream_.params; }
  acquire::SampleType sampleType() const override { return stream_.sampleType; }
  double frameRateHz() const override { return 0; }  // the sender paces
  std::uint64_t frameCount() const override { return stream_.frameCount; }
  void readFrame(std::uint64_t index, std::span<std::byte> dst, acquire::SliceInfo& slice) override;
  // Receives the next frame into a buffer of its own and lets it go (Drop, no free host slot).
  void skipFrame(std::uint64_t index) override;
  void startAcquisition() override {
    scratch_.resize(frameBytes());  // skipFrame's, once: the size never changes
    feed_->start();
  }
  void stopAcquisition() override { feed_->stop(); }
  std::uint64_t lostFrames() const override { return feed_->lost(); }
  acquire::LostFrames lostFramesByKind() const override { return feed_->lostFramesByKind(); }
  void endWithSender(bool end) override { feed_->endWithSender(end); }
  std::string liveStatus() const override { return feed_->status(); }
  std::string describe() const override { return description_; }

  // Malformed messages skipped since the source opened.
  std::uint64_t malformedMessages() const { return feed_->malformed(); }

 private:
  acquire::StreamFeed::SameStream sameStream() const;  // a header that still describes these frames

  std::unique_ptr<acquire::StreamFeed> feed_;
  std::string who_;  // "network stream on <endpoint>", for messages
  UltrasoundStream stream_;
  std::string description_;
  std::vector<std::byte> scratch_;  // skipFrame's destination, one frame
};

// The header's fields as a stream description, checked. Throws SourceError ("<who>: ...").
UltrasoundStream ultrasoundStreamFromHeader(const nlohmann::json& header, const std::string& who);

}  // namespace cineflow::ultrasound

#pragma once
// Values the engine hands to its users: configuration, statistics, completed frames.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "acquire/frame.hpp"
#include "acquire/lost_frames.hpp"
#include "process/image_geometry.hpp"
#include "profile/rolling_stats.hpp"
#include "tune/tuner.hpp"

namespace cineflow::pipeline {

enum class OverflowPolicy {
  Block,  // the source waits for a free host slot: no frame is ever lost
  Drop,   // the frame is discarded, counted and reported
  // A live source's display stays current and nothing is lost before the raw-frame tap (a
  // recording): the source waits for a free slot as under Block, so every frame is read and
  // recorded, but processing, at the start of a unit (a 2-D frame, a sweep's first slice), goes on
  // from the newest waiting frame that starts one and lets the older ones go unimaged, counted as
  // skipped: whole sweeps are skipped, a sweep under way is finished. A processor whose images
  // depend on the frames before them (Doppler's ensembles: FrameProcessor::needsEveryFrame) gets
  // every frame, as under Block.
  Latest
};
const char* toString(OverflowPolicy policy) noexcept;
OverflowPolicy parseOverflowPolicy(const std::string& text);  // "block" | "drop" | "latest"

// A replayed frame whose stored bytes are damaged (a corrupt chunk, a checksum that does not
// match): found on the acquisition thread (reading, checking and staging the chunk) or by the
// decoder where it runs (an LZ4 block that does not decode).
enum class DamagedFramePolicy {
  Stop,  // the replay stops with an error naming the frame and what is wrong
  Skip   // the frame is left out (never shown, never saved), counted, and the last reason kept
};
const char* toString(DamagedFramePolicy policy) noexcept;
DamagedFramePolicy parseDamagedFramePolicy(const std::string& text);  // "stop" | "skip"

struct EngineConfig {
  int hostRingSlots = 8;     // N pinned host slots between acquisition and upload
  int inFlightSlots = 2;     // device slots uploading / processing concurrently (>= 2)
  int cineloopFrames = 256;  // M: the last M images are kept for review
  OverflowPolicy overflow = OverflowPolicy::Block;
  DamagedFramePolicy damagedFrames = DamagedFramePolicy::Stop;
  bool pace = true;             // pace the source at its frameRateHz(); false: flat out
  double frameRateHz = 0;       // pacing rate override (0: the source's own frameRateHz())
  std::uint64_t maxFrames = 0;  // frames to take, then finish (0: until stop() or the source ends)
  // Measuring a stage's variants runs each about ten times (tune/tuner.hpp): some 70 runs of the
  // beamformer's seven. The fastest saves at most about half of the default's time per frame, so
  // a run pays the measuring back only past about 150 frames. A run of fewer frames than this
  // starts at once on the history's choice, else the default (a later, longer run measures);
  // 0: every run measures what the history lacks.
  std::uint64_t tuningPaybackFrames = 256;
  int statsWindow = 120;  // frames over which stage statistics are computed
  // Frames per elevation sweep, i.e. per volume (process/volume.hpp): -1 takes the source's
  // (FrameSource::framesPerVolume, 0 when it is not a volume acquisition), 0 turns volumes
  // off, K > 0 groups frames by their source index modulo K.
  int framesPerVolume = -1;
  // Throws std::invalid_argument naming the bad field.
  void validate() const;
};

enum class EngineState { Stopped, Running, Finished, Failed };
const char* toString(EngineState state) noexcept;

// Rolling statistics of one timed quantity over the engine's statistics window (profile/).
struct StageStats {
  std::string name;
  std::string variant;    // the implementation it ran (tune/tuner.hpp); empty: it has one
  std::size_t count = 0;  // samples in the window
  double lastMs = 0, minMs = 0, medianMs = 0, p99Ms = 0, maxMs = 0, meanMs = 0, stdMs = 0;
};
StageStats toStageStats(const std::string& name, const profile::Summary& summary);

struct EngineStats {
  EngineState state = EngineState::Stopped;
  std::string error;  // set when state is Failed
  // Set with Failed when a live source's picture changed (acquire::SourceChanged): what changed.
  // The same source opened again follows it.
  std::string sourceChange;
  std::uint64_t acquired = 0;  // frames taken from the source (incl. dropped)
  std::uint64_t dropped = 0;   // frames discarded by the Drop policy
  // Frames read (and given to the raw-frame tap) but not imaged: the Latest policy let them go
  // for a newer one.
  std::uint64_t skipped = 0;
  std::uint64_t lost = 0;    // frames a live source lost before Cineflow had them (sender gaps)
  std::string sourceStatus;  // a live source's state when it is not delivering (liveStatus())
  // A live source's transport counters (FrameSource::transportCounters: a camera stream's
  // completed, failed and underrun buffers, resent packets).
  std::vector<std::pair<std::string, std::uint64_t>> sourceCounters;
  std::uint64_t processed = 0;  // frames whose image is complete
  std::uint64_t damaged = 0;    // frames skipped as damaged (DamagedFramePolicy::Skip)
  std::string lastDamage;       // what was wrong with the last of them
  // Frames a live source did not deliver, by why, with a second sender's frames left out
  // (FrameSource::lostFramesByKind); `lost` counts its gaps and truncated frames.
  acquire::LostFrames lostByKind;
  // How each tunable stage's implementation was chosen, with the measurement behind it (all
  // variants' times), and a note when a stage's times drifted from that measurement.
  std::vector<tune::StageChoice> variants;
  std::string tuneNote;
  std::uint64_t volumes = 0;  // complete volumes dispatched (MIPs enqueued, callback fired)
  std::uint64_t volumesAbandoned = 0;  // sweeps cut short (a dropped frame, or stop())
  double acquisitionFps = 0;           // recent rates
  double processingFps = 0;
  int ringOccupancy = 0;  // host slots holding frames not yet uploaded
  int ringSlots = 0;
  std::vector<StageStats> stages;  // upload first, then the processor's stages
  double frameMedianMs = 0;        // upload start to image complete, median over the window
  // End to end: from the source's timestamp (the frame's acquisition) to the image being
  // displayable (complete in the cineloop), host clock.
  StageStats latency;
  // The three MIPs of each complete volume on the endpoint stream (device time, one sample per
  // volume; count 0 while volumes are off).
  StageStats mip;
};

// A completed image, handed to the frame observer on a host callback of the notify stream, after
// the frame's stages: its time is not the frame's (EngineStats), and the next frames' stages run
// meanwhile, but the engine waits for it before it reuses the frame's in-flight slot (a slow
// observer slows the engine down to its pace). `image` is host memory that is valid only during
// the call: copy what you keep. `fresh`: every layer was computed from
// this frame (FrameProcessor::lastImageFresh(); false where Doppler's flow layers repeat an
// earlier estimate or hold none yet): what averages over frames must keep to.
struct CompletedFrame {
  const acquire::FrameHeader& header;
  const process::ImageGeometry& geometry;
  std::span<const float> image;
  bool fresh = true;
};
using FrameObserver = std::function<void(const CompletedFrame&)>;
// Told once of each frame the source delivered that the frame observer will never see: its
// stored bytes were damaged and DamagedFramePolicy::Skip skipped it (at the host or where it was
// decoded). With the frame observer, every delivered frame is accounted for exactly once (what a
// lossless recorder's admission needs: store/bmode_recorder.hpp). On the acquisition thread or a
// host callback; must not throw or block.
using DiscardObserver = std::function<void(const acquire::FrameHeader&)>;
// Sees every raw frame the source delivered (frames dropped at a full host ring never exist),
// on the acquisition thread, between the read and the frame's entry into the host ring: a
// raw recorder's submit(). It may block (the acquisition then waits: Block recording loses
// nothing) but must not throw.
using RawFrameTap =
    std::function<void(const acquire::FrameHeader& header, std::span<const std::byte> frame)>;

}  // namespace cineflow::pipeline

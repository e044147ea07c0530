#pragma once
// BmodeProcessor: the RF-mode imaging chain (DESIGN.md §4) as one FrameProcessor:
//   raw [T][E][S] int16/float32 -> bandpass -> DAS beamform [z][x] -> envelope -> dB [z][x].
//
// Memory: owns the stages and their intermediate device buffers (filtered RF [T][E][S] float,
// beamformed RF [z][x], envelope [z][x]). Stream: enqueue() only enqueues work on `stream`; it
// never allocates or synchronises. The intermediate buffers are shared by all enqueues of one
// processor, so a processor serves one stream at a time (the engine keeps one per compute
// stream, or orders the streams with events).

#include <array>

#include "process/bandpass.hpp"
#include "process/beamform.hpp"
#include "process/envelope.hpp"
#include "process/frame_processor.hpp"
#include "process/log_compress.hpp"

namespace cineflow::process {

class BmodeProcessor final : public FrameProcessor {
 public:
  // Throws std::invalid_argument via acq.validate() / imaging.validate(acq).
  void configure(compute::Backend& backend, const acquire::AcquisitionParams& acq,
                 acquire::SampleType sampleType, const ImagingParams& imaging) override;
  ImageGeometry geometry() const override { return geometry_; }
  std::span<const char* const> stageNames() const override { return kStageNames; }
  // `marks` holds stageNames().size() + 1 events (or is empty: no timing). Throws
  // std::invalid_argument before enqueuing anything when the spans or marks do not fit.
  void enqueue(compute::Stream& stream, compute::DeviceSpan<const std::byte> raw,
               compute::DeviceSpan<float> image, StageMarks marks) override;

  const BandpassFilter& bandpass() const { return bandpass_; }

 private:
  static constexpr std::array<const char*, 4> kStageNames = {"bandpass", "beamform", "envelope",
                                                             "log"};

  ImageGeometry geometry_;
  std::size_t rawBytes_ = 0;
  BandpassFilter bandpass_;
  DasBeamformer beamformer_;
  EnvelopeDetector envelope_;
  LogCompressor log_;
  compute::DeviceBuffer<float> filtered_;    // [T][E][S]
  compute::DeviceBuffer<float> beamformed_;  // [z][x]
  compute::DeviceBuffer<float> detected_;    // [z][x] envelope
};

}  // namespace cineflow::process

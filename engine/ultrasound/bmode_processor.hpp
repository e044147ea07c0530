#pragma once
// BmodeProcessor: the B-mode imaging chain (docs/ultrasound.md) as one FrameProcessor, in the mode
// ImagingParams::mode chooses:
//   RF:  raw [T][E][S] int16/float32 -> bandpass, interpolated by U [T][E][S U] -> DAS beamform
//        [z][x] -> envelope -> dB [z][x]
//   I/Q: raw [T][E][S] int16/float32 -> demodulate [T][E][ceil(S/D)] complex -> DAS on I/Q
//        and |IQ| [z][x] -> dB [z][x]
//   Colour / power Doppler: the I/Q chain, whose beamformer also hands its complex sum to the
//        flow estimator (ensemble, clutter filter, autocorrelation): the image's flow layers
//        [velocity, variance, power][z][x] after the dB layer (process/image_geometry.hpp)
// A reconfiguration may change the mode, and with it stageNames().
//
// Memory: owns the stages and their intermediate device buffers (RF: filtered RF [T][E][S U] float,
// beamformed RF [z][x], envelope [z][x]; I/Q: I/Q [T][E][ceil(S/D)][2], envelope [z][x]). Stream:
// enqueue() only enqueues work on `stream`; it never allocates or synchronises. The intermediate
// buffers are shared by all enqueues of one processor, so a processor serves one stream at a time
// (the engine keeps one per compute stream, or orders the streams with events).

#include <array>

#include "modality/frame_processor.hpp"
#include "process/log_compress.hpp"
#include "ultrasound/bandpass.hpp"
#include "ultrasound/beamform.hpp"
#include "ultrasound/envelope.hpp"
#include "ultrasound/flow_estimator.hpp"
#include "ultrasound/iq_beamform.hpp"
#include "ultrasound/iq_demodulate.hpp"

namespace cineflow::ultrasound {

class BmodeProcessor final : public modality::FrameProcessor {
 public:
  // Throws std::invalid_argument via acq.validate() / imaging.validate(acq).
  void configure(compute::Backend& backend, const acquire::AcquisitionParams& acq,
                 acquire::SampleType sampleType, const ImagingParams& imaging);
  // The same for an UltrasoundSource and UltrasoundSettings (ultrasound/ultrasound_modality.hpp);
  // throws std::invalid_argument for another modality's.
  void configure(compute::Backend& backend, const acquire::FrameSource& source,
                 const modality::ProcessingSettings& settings) override;
  process::ImageGeometry geometry() const override { return geometry_; }
  std::span<const char* const> stageNames() const override;
  ImagingMode mode() const { return mode_; }
  // `marks` holds stageNames().size() + 1 events (or is empty: no timing). Throws
  // std::invalid_argument before enqueuing anything when the spans or marks do not fit.
  // Plane-wave frames are imaged alike whichever frame they are; the Doppler modes read `frame`
  // to tell whether it follows the previous one (FlowEstimator).
  void enqueue(compute::Stream& stream, const acquire::FrameHeader& frame,
               compute::DeviceSpan<const std::byte> raw, compute::DeviceSpan<float> image,
               process::StageMarks marks) override;
  void enqueue(compute::Stream& stream, compute::DeviceSpan<const std::byte> raw,
               compute::DeviceSpan<float> image, process::StageMarks marks) {
    enqueue(stream, acquire::FrameHeader{}, raw, image, marks);
  }

  // The flow layers of the Doppler modes hold a new estimate only when one was due
  // (FlowEstimator::estimated()); the B-mode layer is always the frame's own.
  bool lastImageFresh() const override { return !isDoppler(mode_) || flow_.estimated(); }
  bool needsEveryFrame() const override { return isDoppler(mode_); }

  const BandpassFilter& bandpass() const { return bandpass_; }
  // The beamformer of either mode (DasBeamformer::variants(), IqBeamformer::variants()).
  std::vector<tune::TunableStage> tunableStages(compute::Backend& backend) override;
  const DasBeamformer& beamformer() const { return beamformer_; }

 private:
  static constexpr std::array<const char*, 4> kRfStages = {"bandpass", "beamform", "envelope",
                                                           "log"};
  static constexpr std::array<const char*, 3> kIqStages = {"demodulate", "beamform", "log"};
  static constexpr std::array<const char*, 4> kDopplerStages = {"demodulate", "beamform", "log",
                                                                "doppler"};

  void enqueueRf(compute::Stream& stream, compute::DeviceSpan<const std::byte> raw,
                 compute::DeviceSpan<float> image, process::StageMarks marks);
  void enqueueIq(compute::Stream& stream, const acquire::FrameHeader& frame,
                 compute::DeviceSpan<const std::byte> raw, compute::DeviceSpan<float> image,
                 process::StageMarks marks);

  ImagingMode mode_ = ImagingMode::Rf;
  process::ImageGeometry geometry_;
  std::size_t rawBytes_ = 0;
  BandpassFilter bandpass_;
  DasBeamformer beamformer_;
  EnvelopeDetector envelope_;
  process::LogCompressor log_;
  compute::DeviceBuffer<float> filtered_;    // [T][E][S U]
  compute::DeviceBuffer<float> beamformed_;  // [z][x]
  compute::DeviceBuffer<float> detected_;    // [z][x] envelope (both modes)
  IqDemodulator demodulator_;
  IqBeamformer iqBeamformer_;
  compute::DeviceBuffer<float> iq_;              // [T][E][S/D][2]
  FlowEstimator flow_;                           // the Doppler modes' ensemble and estimate
  std::unique_ptr<compute::Stream> tuneStream_;  // the tuner's runs
};

}  // namespace cineflow::ultrasound

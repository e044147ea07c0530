#include "ultrasound/bmode_processor.hpp"

#include <string>
#include <utility>

#include "ultrasound/ultrasound_modality.hpp"

namespace cineflow::ultrasound {

std::span<const char* const> BmodeProcessor::stageNames() const {
  if (isDoppler(mode_)) {
    return kDopplerStages;
  }
  if (mode_ == ImagingMode::Iq) {
    return kIqStages;
  }
  return kRfStages;
}

void BmodeProcessor::configure(compute::Backend& backend, const acquire::FrameSource& source,
                               const modality::ProcessingSettings& settings) {
  const ultrasound::UltrasoundSource& ultrasound = ultrasound::requireUltrasound(source);
  configure(backend, ultrasound.params(), ultrasound.sampleType(),
            ultrasound::requireImaging(settings));
}

void BmodeProcessor::configure(compute::Backend& backend, const acquire::AcquisitionParams& acq,
                               acquire::SampleType sampleType, const ImagingParams& imaging) {
  acq.validate();
  imaging.validate(acq);
  const process::ImageGeometry geometry = imaging.geometry();  // the intensity layer
  // Build everything before replacing anything, so a failure leaves the old configuration whole.
  process::LogCompressor log;
  log.configure(backend, geometry);
  compute::DeviceBuffer<float> detected(backend, geometry.pixels());
  BandpassFilter bandpass;
  DasBeamformer beamformer;
  EnvelopeDetector envelope;
  compute::DeviceBuffer<float> filtered, beamformed, iq;
  IqDemodulator demodulator;
  IqBeamformer iqBeamformer;
  FlowEstimator flow;
  if (imaging.mode == ImagingMode::Rf) {
    bandpass.configure(backend, acq, sampleType, imaging);
    beamformer.configure(backend, acq, imaging, bandpass.outputRateHz(), bandpass.outputSamples());
    envelope.configure(backend, geometry);
    filtered = compute::DeviceBuffer<float>(backend, bandpass.rows() * bandpass.outputSamples());
    beamformed = compute::DeviceBuffer<float>(backend, geometry.pixels());
  } else {
    demodulator.configure(backend, acq, sampleType, imaging);
    iqBeamformer.configure(backend, acq, imaging, demodulator.iqSamples());
    iq = compute::DeviceBuffer<float>(backend, demodulator.iqFloats());
  }
  if (isDoppler(imaging.mode)) {
    flow.configure(backend, geometry, imaging.doppler, imaging.doppler.aliasingVelocityFor(acq));
  }

  mode_ = imaging.mode;
  geometry_ = imaging.imageGeometry(acq);
  rawBytes_ = acq.samplesPerFrame() * acquire::sampleBytes(sampleType);
  bandpass_ = std::move(bandpass);
  beamformer_ = std::move(beamformer);
  envelope_ = std::move(envelope);
  log_ = log;
  filtered_ = std::move(filtered);
  beamformed_ = std::move(beamformed);
  detected_ = std::move(detected);
  demodulator_ = std::move(demodulator);
  iqBeamformer_ = std::move(iqBeamformer);
  iq_ = std::move(iq);
  flow_ = std::move(flow);
}

void BmodeProcessor::enqueue(compute::Stream& stream, const acquire::FrameHeader& frame,
                             compute::DeviceSpan<const std::byte> raw,
                             compute::DeviceSpan<float> image, process::StageMarks marks) {
  process::checkEnqueue("B-mode processor", geometry_.values(), rawBytes_, stageNames().size(), raw,
                        image, marks);
  if (mode_ == ImagingMode::Rf) {
    enqueueRf(stream, raw, image, marks);
  } else {
    enqueueIq(stream, frame, raw, image, marks);
  }
}

void BmodeProcessor::enqueueRf(compute::Stream& stream, compute::DeviceSpan<const std::byte> raw,
                               compute::DeviceSpan<float> image, process::StageMarks marks) {
  process::recordMark(stream, marks, 0);
  bandpass_.enqueue(stream, raw, filtered_.view());
  process::recordMark(stream, marks, 1);
  beamformer_.enqueue(stream, filtered_.view(), beamformed_.view());
  process::recordMark(stream, marks, 2);
  envelope_.enqueue(stream, beamformed_.view(), detected_.view());
  process::recordMark(stream, marks, 3);
  log_.enqueue(stream, detected_.view(), image);
  process::recordMark(stream, marks, 4);
}

void BmodeProcessor::enqueueIq(compute::Stream& stream, const acquire::FrameHeader& frame,
                               compute::DeviceSpan<const std::byte> raw,
                               compute::DeviceSpan<float> image, process::StageMarks marks) {
  const bool doppler = isDoppler(mode_);
  const std::size_t pixels = geometry_.pixels();
  process::recordMark(stream, marks, 0);
  demodulator_.enqueue(stream, raw, iq_.view());
  process::recordMark(stream, marks, 1);
  iqBeamformer_.enqueue(stream, iq_.view(), detected_.view(),
                        doppler ? flow_.nextFrame() : compute::DeviceSpan<float>{});
  process::recordMark(stream, marks, 2);
  log_.enqueue(stream, detected_.view(), image.subspan(0, pixels));
  process::recordMark(stream, marks, 3);
  if (doppler) {
    flow_.enqueue(stream, frame, image.subspan(pixels, 3 * pixels));
    process::recordMark(stream, marks, 4);
  }
}

std::vector<tune::TunableStage> BmodeProcessor::tunableStages(compute::Backend& backend) {
  if (geometry_.pixels() == 0) {
    return {};
  }
  if (!tuneStream_) {
    tuneStream_ = backend.createStream("tune");
  }
  const auto finish = [this] { tune::finishTuningRun(*tuneStream_, "the B-mode chain"); };
  tune::TunableStage stage;
  stage.stage = "beamform";
  const std::string pixels =
      std::to_string(geometry_.nx) + " x " + std::to_string(geometry_.nz) + " px, ";
  // The Doppler modes' beamformer also writes the ensemble's next frame, as in the chain.
  const compute::DeviceSpan<float> complexOut =
      isDoppler(mode_) ? flow_.nextFrame() : compute::DeviceSpan<float>{};
  if (mode_ == ImagingMode::Rf) {
    stage.problem = pixels + std::to_string(bandpass_.rows()) + " RF traces of " +
                    std::to_string(bandpass_.outputSamples()) + " samples";
    stage.variants = beamformer_.variants();
    stage.select = [this](std::size_t index) { beamformer_.selectVariant(index); };
    stage.runOnce = [this, finish] {
      beamformer_.enqueue(*tuneStream_, filtered_.view(), beamformed_.view());
      finish();
    };
    // The envelope reads the beamformer's output and writes the detected image, as in the chain.
    tune::TunableStage envelope;
    envelope.stage = "envelope";
    envelope.problem =
        std::to_string(geometry_.nx) + " columns of " + std::to_string(geometry_.nz) + " rows";
    envelope.variants = envelope_.variants();
    envelope.select = [this](std::size_t index) { envelope_.selectVariant(index); };
    envelope.runOnce = [this, finish] {
      envelope_.enqueue(*tuneStream_, beamformed_.view(), detected_.view());
      finish();
    };
    return {std::move(stage), std::move(envelope)};
  } else {
    const std::size_t samples = demodulator_.iqSamples();
    stage.problem = pixels + std::to_string(iq_.size() / (2 * samples)) + " I/Q traces of " +
                    std::to_string(samples) + " samples";
    stage.variants = iqBeamformer_.variants();
    stage.select = [this](std::size_t index) { iqBeamformer_.selectVariant(index); };
    stage.runOnce = [this, finish, complexOut] {
      iqBeamformer_.enqueue(*tuneStream_, iq_.view(), detected_.view(), complexOut);
      finish();
    };
  }
  return {std::move(stage)};
}

}  // namespace cineflow::ultrasound

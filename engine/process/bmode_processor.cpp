#include "process/bmode_processor.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace cineflow::process {

void BmodeProcessor::configure(compute::Backend& backend, const acquire::AcquisitionParams& acq,
                               acquire::SampleType sampleType, const ImagingParams& imaging) {
  acq.validate();
  imaging.validate(acq);
  const ImageGeometry geometry = imaging.geometry();
  // Build everything before replacing anything, so a failure leaves the old configuration whole.
  BandpassFilter bandpass;
  bandpass.configure(backend, acq, sampleType, imaging);
  DasBeamformer beamformer;
  beamformer.configure(backend, acq, imaging);
  EnvelopeDetector envelope;
  envelope.configure(backend, geometry);
  LogCompressor log;
  log.configure(backend, geometry);
  compute::DeviceBuffer<float> filtered(backend, acq.samplesPerFrame());
  compute::DeviceBuffer<float> beamformed(backend, geometry.pixels());
  compute::DeviceBuffer<float> detected(backend, geometry.pixels());

  geometry_ = geometry;
  rawBytes_ = acq.samplesPerFrame() * acquire::sampleBytes(sampleType);
  bandpass_ = std::move(bandpass);
  beamformer_ = std::move(beamformer);
  envelope_ = std::move(envelope);
  log_ = log;
  filtered_ = std::move(filtered);
  beamformed_ = std::move(beamformed);
  detected_ = std::move(detected);
}

void BmodeProcessor::enqueue(compute::Stream& stream, compute::DeviceSpan<const std::byte> raw,
                             compute::DeviceSpan<float> image, StageMarks marks) {
  if (geometry_.pixels() == 0) {
    throw std::logic_error("B-mode processor: enqueue() before configure()");
  }
  if (!marks.empty() && marks.size() != kStageNames.size() + 1) {
    throw std::invalid_argument("B-mode processor: got " + std::to_string(marks.size()) +
                                " stage marks, expected " + std::to_string(kStageNames.size() + 1) +
                                " (or none)");
  }
  for (const auto& mark : marks) {
    if (mark == nullptr) {
      throw std::invalid_argument("B-mode processor: a stage mark is null");
    }
  }
  if (image.size() != geometry_.pixels()) {
    throw std::invalid_argument("B-mode processor: image holds " + std::to_string(image.size()) +
                                " floats, expected " + std::to_string(geometry_.pixels()) + " (" +
                                std::to_string(geometry_.nz) + " x " +
                                std::to_string(geometry_.nx) + ")");
  }
  if (raw.size() != rawBytes_ || raw.data() == nullptr || image.data() == nullptr) {
    throw std::invalid_argument("B-mode processor: raw frame holds " + std::to_string(raw.size()) +
                                " bytes, expected " + std::to_string(rawBytes_) +
                                " (or a span is null)");
  }
  const auto record = [&](std::size_t index) {
    if (!marks.empty()) {
      stream.record(*marks[index]);
    }
  };
  record(0);
  bandpass_.enqueue(stream, raw, filtered_.view());
  record(1);
  beamformer_.enqueue(stream, filtered_.view(), beamformed_.view());
  record(2);
  envelope_.enqueue(stream, beamformed_.view(), detected_.view());
  record(3);
  log_.enqueue(stream, detected_.view(), image);
  record(4);
}

}  // namespace cineflow::process

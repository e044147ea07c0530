#include "ultrasound/ultrasound_modality.hpp"

#include <cstdio>
#include <stdexcept>
#include <string>

#include "store/acquisition_layout.hpp"
#include "store/bmode_writer.hpp"
#include "ultrasound/bmode_processor.hpp"
#include "ultrasound/rf_writer.hpp"

namespace cineflow::ultrasound {
namespace {

class UltrasoundModality final : public modality::Modality {
 public:
  const char* name() const override { return "ultrasound"; }

  std::shared_ptr<const modality::ProcessingSettings> defaultSettings(
      const acquire::FrameSource& source) const override {
    return makeSettings(
        ultrasound::ImagingParams::defaultsFor(ultrasound::requireUltrasound(source).params()));
  }

  void validate(const modality::ProcessingSettings& settings,
                const acquire::FrameSource& source) const override {
    const acquire::AcquisitionParams& acquisition = ultrasound::requireUltrasound(source).params();
    acquisition.validate();
    const ultrasound::ImagingParams& imaging = requireImaging(settings);
    imaging.validate(acquisition);
    // An estimate takes a whole ensemble of consecutive frames: a source that holds fewer (a
    // short recording; live sources are endless) would give maps of nothing.
    const std::uint64_t frames = source.frameCount();
    if (ultrasound::isDoppler(imaging.mode) &&
        frames < static_cast<std::uint64_t>(imaging.doppler.ensemble)) {
      throw std::invalid_argument(
          "the Doppler ensemble is " + std::to_string(imaging.doppler.ensemble) + " frames, but " +
          source.describe() + " holds " + std::to_string(frames) +
          (frames == 1 ? " frame" : " frames") + ": choose an ensemble of at most " +
          std::to_string(frames) + " (--ensemble)");
    }
  }

  process::ImageGeometry geometry(const modality::ProcessingSettings& settings,
                                  const acquire::FrameSource& source) const override {
    return requireImaging(settings).imageGeometry(ultrasound::requireUltrasound(source).params());
  }

  std::unique_ptr<modality::FrameProcessor> createProcessor() const override {
    return std::make_unique<ultrasound::BmodeProcessor>();
  }

  store::FileMetadata describe(const acquire::FrameSource& source,
                               const modality::ProcessingSettings& settings) const override {
    return describeAcquisition(ultrasound::requireUltrasound(source).params(),
                               requireImaging(settings));
  }

  // cineflow.rf/1, as rf_writer writes it: /rf [frames][transmits][elements][samples].
  store::RecordingLayout recordingLayout(const acquire::FrameSource& source,
                                         const modality::ProcessingSettings&) const override {
    const ultrasound::UltrasoundSource& ultrasound = ultrasound::requireUltrasound(source);
    const acquire::AcquisitionParams& acq = ultrasound.params();
    store::RecordingLayout layout;
    layout.schema = "cineflow.rf/1";
    layout.dataset = "rf";
    layout.frameDims = {static_cast<std::uint64_t>(acq.transmits()),
                        static_cast<std::uint64_t>(acq.elements()),
                        static_cast<std::uint64_t>(acq.samples)};
    layout.sampleKind = ultrasound.sampleType() == acquire::SampleType::Float32
                            ? store::SampleKind::Float32
                            : store::SampleKind::Int16;
    layout.dimensions = "frames, transmits, elements, samples";
    layout.perFrameElevation = true;  // a sweep's slices replay where they were acquired
    layout.header = store::acquisitionMetadata(acq);
    layout.header.attributes.merge(ultrasound::optionalRfAttributes(acq));
    return layout;
  }
};

const UltrasoundModality kUltrasound;

}  // namespace

const modality::Modality& UltrasoundSettings::modality() const {
  return kUltrasound;
}

const modality::Modality& ultrasoundModality() {
  return kUltrasound;
}

std::shared_ptr<const UltrasoundSettings> makeSettings(const ultrasound::ImagingParams& imaging) {
  return std::make_shared<const UltrasoundSettings>(imaging);
}

const ultrasound::ImagingParams& requireImaging(const modality::ProcessingSettings& settings) {
  const auto* ultrasound = dynamic_cast<const UltrasoundSettings*>(&settings);
  if (ultrasound == nullptr) {
    throw std::invalid_argument(
        std::string("ultrasound imaging needs ultrasound parameters, not ") +
        settings.modality().name() + " ones");
  }
  return ultrasound->imaging();
}

store::AttributeMap imagingAttributes(const ultrasound::ImagingParams& imaging,
                                      const acquire::AcquisitionParams& acquisition) {
  store::AttributeMap attributes = {
      {"imaging_mode", std::string(toString(imaging.mode))},
      {"f_number", imaging.fNumber},
      {"apodisation", std::string(toString(imaging.apodisation))},
      {"grid_mm", imaging.grid.toMillimetreString()},
  };
  if (imaging.mode == ultrasound::ImagingMode::Rf) {
    const auto [low, high] = imaging.rfBandFor(acquisition);
    char band[64];
    std::snprintf(band, sizeof band, "%.6g:%.6g", low * 100.0, high * 100.0);
    attributes["bandpass_percent_of_f0"] = std::string(band);
    attributes["rf_interpolation"] = std::int64_t{imaging.rfUpsamplingFor(acquisition)};
    attributes["fir_taps"] = std::int64_t{imaging.firTaps};
  } else {
    attributes["iq_bandwidth_percent"] = imaging.iqBandwidthFor(acquisition) * 100.0;
    attributes["iq_decimation"] = std::int64_t{imaging.iqDecimation};
  }
  if (ultrasound::isDoppler(imaging.mode)) {
    const ultrasound::DopplerParams& d = imaging.doppler;
    attributes["doppler_ensemble"] = std::int64_t{d.ensemble};
    attributes["doppler_ensemble_mode"] = std::string(toString(d.ensembleMode));
    attributes["doppler_wall_filter"] = std::string(toString(d.wallFilter));
    switch (d.wallFilter) {
      case ultrasound::WallFilter::Regression:
        attributes["doppler_regression_order"] = std::int64_t{d.regressionOrder};
        break;
      case ultrasound::WallFilter::Iir:
        attributes["doppler_iir_cutoff_of_prf"] = d.iirCutoff;
        break;
      case ultrasound::WallFilter::Svd:
        attributes["doppler_svd_rank"] = std::int64_t{d.svdRank};
        break;
      case ultrasound::WallFilter::None:
        break;
    }
    attributes["doppler_average_px"] = d.averagingSpec();
    attributes["doppler_prf_hz"] = d.prfFor(acquisition);
    attributes["nyquist_velocity_m_s"] = d.aliasingVelocityFor(acquisition);
    if (!d.box.empty()) {
      char box[96];
      std::snprintf(box, sizeof box, "%.6g:%.6g,%.6g:%.6g", d.box.x0 * 1e3, d.box.x1 * 1e3,
                    d.box.z0 * 1e3, d.box.z1 * 1e3);
      attributes["doppler_box_mm"] = std::string(box);
    }
  }
  return attributes;
}

store::FileMetadata describeAcquisition(const acquire::AcquisitionParams& acq) {
  store::FileMetadata metadata = store::acquisitionMetadata(acq);
  metadata.attributes["modality"] = std::string("ultrasound");
  return metadata;
}

store::FileMetadata describeAcquisition(const acquire::AcquisitionParams& acquisition,
                                        const ultrasound::ImagingParams& imaging) {
  store::FileMetadata metadata = describeAcquisition(acquisition);
  for (auto& [name, value] : imagingAttributes(imaging, acquisition)) {
    metadata.attributes[name] = value;
  }
  return metadata;
}

}  // namespace cineflow::ultrasound

namespace cineflow::ultrasound {

const modality::Modality& UltrasoundSource::modality() const {
  return ultrasound::ultrasoundModality();
}

const UltrasoundSource* asUltrasound(const acquire::FrameSource* source) {
  return source != nullptr ? dynamic_cast<const UltrasoundSource*>(&source->origin()) : nullptr;
}

const UltrasoundSource& requireUltrasound(const acquire::FrameSource& source) {
  const auto* ultrasound = asUltrasound(&source);
  if (ultrasound == nullptr) {
    throw std::invalid_argument("ultrasound imaging cannot read " + source.describe() + ", a " +
                                source.modality().name() + " source");
  }
  return *ultrasound;
}

}  // namespace cineflow::ultrasound

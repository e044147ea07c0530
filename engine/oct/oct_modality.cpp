#include "oct/oct_modality.hpp"

#include <stdexcept>
#include <string>

#include "oct/oct_processor.hpp"
#include "oct/oct_writer.hpp"

namespace cineflow::oct {
namespace {

class OctModality final : public modality::Modality {
 public:
  const char* name() const override { return "oct"; }

  std::shared_ptr<const modality::ProcessingSettings> defaultSettings(
      const acquire::FrameSource& source) const override {
    const OctSource& oct = requireOct(source);
    OctParams params = OctParams::defaultsFor(oct.acquisition());
    if (const std::optional<OctDispersion> recorded = oct.recordedDispersion()) {
      params.a2 = recorded->a2Rad;
      params.a3 = recorded->a3Rad;
      params.dispersionCentreM = recorded->centreWavelengthM;
    }
    return makeSettings(std::move(params));
  }

  void validate(const modality::ProcessingSettings& settings,
                const acquire::FrameSource& source) const override {
    const OctAcquisition& acquisition = requireOct(source).acquisition();
    acquisition.validate();
    requireParams(settings).validate(acquisition);
  }

  process::ImageGeometry geometry(const modality::ProcessingSettings& settings,
                                  const acquire::FrameSource& source) const override {
    return requireParams(settings).geometry(requireOct(source).acquisition());
  }

  std::unique_ptr<modality::FrameProcessor> createProcessor() const override {
    return std::make_unique<OctProcessor>();
  }

  store::FileMetadata describe(const acquire::FrameSource& source,
                               const modality::ProcessingSettings& settings) const override {
    return oct::describe(requireOct(source).acquisition(), requireParams(settings));
  }

  // cineflow.oct/1 (oct_recording.hpp), with the dispersion in effect as the recording's own.
  store::RecordingLayout recordingLayout(
      const acquire::FrameSource& source,
      const modality::ProcessingSettings& settings) const override {
    const OctAcquisition& acquisition = requireOct(source).acquisition();
    const OctParams& params = requireParams(settings);
    store::RecordingLayout layout;
    layout.schema = kOctSchema;
    layout.dataset = "spectra";
    layout.frameDims = {static_cast<std::uint64_t>(acquisition.ascans),
                        static_cast<std::uint64_t>(acquisition.samples)};
    layout.sampleKind = store::SampleKind::UInt16;
    layout.dimensions = "frames, ascans, samples";
    layout.header = recordingMetadata(
        acquisition, OctDispersion{params.a2, params.a3, params.dispersionCentre(acquisition)});
    return layout;
  }
};

const OctModality kOct;

}  // namespace

const modality::Modality& OctSettings::modality() const {
  return kOct;
}

const modality::Modality& OctSource::modality() const {
  return kOct;
}

const modality::Modality& octModality() {
  return kOct;
}

const OctSource* asOct(const acquire::FrameSource* source) {
  return source != nullptr ? dynamic_cast<const OctSource*>(&source->origin()) : nullptr;
}

const OctSource& requireOct(const acquire::FrameSource& source) {
  const OctSource* oct = asOct(&source);
  if (oct == nullptr) {
    throw std::invalid_argument("OCT imaging cannot read " + source.describe() + ", a " +
                                source.modality().name() + " source");
  }
  return *oct;
}

std::shared_ptr<const OctSettings> makeSettings(OctParams params) {
  return std::make_shared<const OctSettings>(std::move(params));
}

const OctParams& requireParams(const modality::ProcessingSettings& settings) {
  const auto* oct = dynamic_cast<const OctSettings*>(&settings);
  if (oct == nullptr) {
    throw std::invalid_argument(std::string("OCT imaging needs OCT parameters, not ") +
                                settings.modality().name() + " ones");
  }
  return oct->params();
}

store::FileMetadata describe(const OctAcquisition& acquisition, const OctParams& params) {
  store::FileMetadata metadata;
  metadata.attributes = {
      {"modality", std::string("oct")},
      {"samples", std::int64_t{acquisition.samples}},
      {"ascans", std::int64_t{acquisition.ascans}},
      {"bit_depth", std::int64_t{acquisition.bitDepth}},
      {"centre_wavelength_m", acquisition.centreWavelengthM},
      {"bandwidth_m", acquisition.bandwidthM},
      {"bscans_per_volume", std::int64_t{acquisition.bscansPerVolume}},
      {"frames_per_volume", std::int64_t{acquisition.bscansPerVolume}},
      {"bidirectional", std::int64_t{acquisition.bidirectional ? 1 : 0}},
      {"flyback_ascans", std::int64_t{acquisition.flybackAscans}},
      {"lateral_step_m", acquisition.lateralStepM},
      {"elevation_step_m", acquisition.elevationStepM},
      {"line_rate_hz", acquisition.lineRateHz},
      {"background", std::string(toString(params.background))},
      {"k_linearisation", std::string(toString(params.kLinearisation))},
      {"interpolation", std::string(toString(params.interpolation))},
      {"dispersion_a2_rad", params.a2},
      {"dispersion_a3_rad", params.a3},
      {"dispersion_centre_wavelength_m", params.dispersionCentre(acquisition)},
      {"window", std::string(toString(params.window))},
      {"depth_first", std::int64_t{params.depthFirst}},
      {"depth_last", std::int64_t{params.lastDepth(acquisition)}},
      {"refractive_index", params.refractiveIndex},
      {"axial_pixel_air_m", acquisition.axialPixelInAirM()},
      {"axial_pixel_m", acquisition.axialPixelInAirM() / params.refractiveIndex},
  };
  metadata.arrays = {{"wavelength_m", acquisition.wavelengthM, "m"}};
  return metadata;
}

}  // namespace cineflow::oct

#pragma once
// The OCT modality (modality/modality.hpp): B-scans from an OctSource, imaged by OctProcessor
// with OctParams. Also OCT's view of a running engine, for the GUI, the command line and tests.

#include <memory>

#include "modality/modality.hpp"
#include "oct/oct_params.hpp"
#include "oct/oct_source.hpp"
#include "pipeline/engine.hpp"

namespace cineflow::oct {

class OctSettings final : public modality::ProcessingSettings {
 public:
  explicit OctSettings(OctParams params) : params_(std::move(params)) {}
  const OctParams& params() const { return params_; }
  const modality::Modality& modality() const override;

 private:
  OctParams params_;
};

const modality::Modality& octModality();

std::shared_ptr<const OctSettings> makeSettings(OctParams params);
// `settings` as OCT's parameters; throws std::invalid_argument otherwise.
const OctParams& requireParams(const modality::ProcessingSettings& settings);

// The acquisition of the engine's source; null without a source or with another modality's.
const OctAcquisition* acquisitionOf(const pipeline::Engine& engine);
// The parameters the engine uses (or takes at the next frame); defaults when none are set or
// the engine runs another modality.
OctParams paramsOf(const pipeline::Engine& engine);
void setParams(pipeline::Engine& engine, OctParams params);

// Saved files' metadata: "modality" = "oct", samples, ascans, bit_depth, centre_wavelength_m,
// bandwidth_m, bscans_per_volume, bidirectional, flyback_ascans, lateral_step_m,
// elevation_step_m, line_rate_hz; /wavelength_m; and the processing: background,
// k_linearisation, interpolation, dispersion_a2_rad, dispersion_a3_rad, window, depth_first,
// depth_last, refractive_index, axial_pixel_air_m, axial_pixel_m (in the sample).
store::FileMetadata describe(const OctAcquisition& acquisition, const OctParams& params);

}  // namespace cineflow::oct

#pragma once
// The OCT modality (modality/modality.hpp): B-scans from an OctSource, imaged by OctProcessor
// with OctParams. OCT's view of a running engine is registry/oct_engine.hpp.

#include <memory>

#include "modality/modality.hpp"
#include "oct/oct_params.hpp"
#include "oct/oct_source.hpp"

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

// Saved files' metadata: "modality" = "oct", samples, ascans, bit_depth, centre_wavelength_m,
// bandwidth_m, bscans_per_volume, bidirectional, flyback_ascans, lateral_step_m,
// elevation_step_m, line_rate_hz; /wavelength_m; and the processing: background,
// k_linearisation, interpolation, dispersion_a2_rad, dispersion_a3_rad, window, depth_first,
// depth_last, refractive_index, axial_pixel_air_m, axial_pixel_m (in the sample).
store::FileMetadata describe(const OctAcquisition& acquisition, const OctParams& params);

}  // namespace cineflow::oct

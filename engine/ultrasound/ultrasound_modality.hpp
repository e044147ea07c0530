#pragma once
// The ultrasound modality (modality/modality.hpp): plane-wave channel data from an
// UltrasoundSource, imaged by BmodeProcessor (RF or I/Q chain) with ImagingParams.
// Ultrasound's view of a running engine is registry/ultrasound_engine.hpp.

#include <memory>

#include "modality/modality.hpp"
#include "ultrasound/imaging_params.hpp"
#include "ultrasound/ultrasound_source.hpp"

namespace cineflow::ultrasound {

class UltrasoundSettings final : public modality::ProcessingSettings {
 public:
  explicit UltrasoundSettings(const ultrasound::ImagingParams& imaging) : imaging_(imaging) {}
  const ultrasound::ImagingParams& imaging() const { return imaging_; }
  const modality::Modality& modality() const override;

 private:
  ultrasound::ImagingParams imaging_;
};

const modality::Modality& ultrasoundModality();

std::shared_ptr<const UltrasoundSettings> makeSettings(const ultrasound::ImagingParams& imaging);
// `settings` as ultrasound's imaging parameters; throws std::invalid_argument otherwise.
const ultrasound::ImagingParams& requireImaging(const modality::ProcessingSettings& settings);

// The processing parameters in effect, as root attributes, so that the image can be made again;
// shared by the B-mode output and saved volumes (docs/file-formats.md): imaging_mode ("rf" | "iq"),
// f_number, apodisation ("hann" | "rect"), grid_mm ("x0:x1:dx,z0:z1:dz"); RF mode:
// bandpass_percent_of_f0 ("70:130"), rf_interpolation and fir_taps (int64); I/Q mode:
// iq_bandwidth_percent and iq_decimation (int64). The values are those in effect for
// `acquisition` (ImagingParams::rfBandFor, rfUpsamplingFor, iqBandwidthFor), never the "automatic"
// zeros; bandwidth_source (writeAcquisition) says where the acquisition's bandwidth came from.
store::AttributeMap imagingAttributes(const ultrasound::ImagingParams& imaging,
                                      const acquire::AcquisitionParams& acquisition);

// Root attributes and datasets for saved files: the acquisition (sampling_frequency_hz,
// center_frequency_hz, sound_speed_m_s, t0_s, samples, fractional_bandwidth, bandwidth_source,
// frames_per_volume; /angles_rad, /element_x_m) and, with `imaging`, how it was imaged
// (imagingAttributes()); "modality" = "ultrasound".
store::FileMetadata describeAcquisition(const acquire::AcquisitionParams& acquisition);
store::FileMetadata describeAcquisition(const acquire::AcquisitionParams& acquisition,
                                        const ultrasound::ImagingParams& imaging);

}  // namespace cineflow::ultrasound

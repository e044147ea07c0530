#pragma once
// The parts every Cineflow file shares (docs/file-formats.md): the acquisition as root attributes
// and datasets, and coordinate axes in metres. Internal to the store (HDF5 is a private
// dependency).

#include <span>
#include <vector>

#include "acquire/frame.hpp"
#include "store/bmode_writer.hpp"  // AttributeMap
#include "store/hdf5_handle.hpp"

namespace cineflow::store {

// Root attribute schema, `metadata`'s attributes (integers as integers) and arrays (float64
// datasets with their units), then `extra`'s attributes (which win over the metadata's), and the
// group /study when the metadata has a study. Throws Hdf5Error.
void writeMetadata(hid_t root, const char* schema, const FileMetadata& metadata,
                   const AttributeMap& extra = {});
// An ultrasound acquisition as attributes sampling_frequency_hz, center_frequency_hz,
// sound_speed_m_s, t0_s, samples (integer), fractional_bandwidth, bandwidth_source
// (bandwidthSource()), frames_per_volume (integer) and arrays angles_rad, element_x_m.
FileMetadata acquisitionMetadata(const acquire::AcquisitionParams& acq);
// writeMetadata() of acquisitionMetadata(acq): root attributes schema, sampling_frequency_hz,
// center_frequency_hz, sound_speed_m_s, t0_s, samples (integer), fractional_bandwidth,
// bandwidth_source (bandwidthSource()), frames_per_volume (integer) and `extra` (integers as
// integers); datasets /angles_rad and /element_x_m with their units. Throws Hdf5Error.
void writeAcquisition(hid_t root, const char* schema, const acquire::AcquisitionParams& acq,
                      const AttributeMap& extra);
// Where fractional_bandwidth comes from: "recorded" (the file or the simulator states it),
// "measured" (from the echoes: AcquisitionParams::bandwidthMeasured) or "default" (none: the chain
// uses its default band, kDefaultIqBandwidthRel or [0.5, 1.5] f0).
const char* bandwidthSource(const acquire::AcquisitionParams& acq);
// A float64 dataset with attribute units = "m".
void writeMetres(hid_t root, const char* name, std::span<const double> values);
// first, first + step, ... (count values).
std::vector<double> axis(int count, double first, double step);

}  // namespace cineflow::store

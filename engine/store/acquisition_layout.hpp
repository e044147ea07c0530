#pragma once
// The parts every Cineflow file shares (DESIGN.md §5): the acquisition as root attributes and
// datasets, and coordinate axes in metres. Internal to the store (HDF5 is a private dependency).

#include <span>
#include <vector>

#include "acquire/frame.hpp"
#include "store/bmode_writer.hpp"  // AttributeMap
#include "store/hdf5_handle.hpp"

namespace cineflow::store {

// Root attributes schema, sampling_frequency_hz, center_frequency_hz, sound_speed_m_s, t0_s,
// samples, fractional_bandwidth, frames_per_volume and `extra`; datasets /angles_rad and
// /element_x_m with their units. Throws Hdf5Error.
void writeAcquisition(hid_t root, const char* schema, const acquire::AcquisitionParams& acq,
                      const AttributeMap& extra);
// A float64 dataset with attribute units = "m".
void writeMetres(hid_t root, const char* name, std::span<const double> values);
// first, first + step, ... (count values).
std::vector<double> axis(int count, double first, double step);

}  // namespace cineflow::store

#include "store/acquisition_layout.hpp"

#include <string>
#include <variant>

namespace cineflow::store {

void writeAcquisition(hid_t root, const char* schema, const acquire::AcquisitionParams& acq,
                      const AttributeMap& extra) {
  writeStringAttribute(root, "schema", schema);
  writeNumberAttribute(root, "sampling_frequency_hz", acq.samplingFrequencyHz);
  writeNumberAttribute(root, "center_frequency_hz", acq.centerFrequencyHz);
  writeNumberAttribute(root, "sound_speed_m_s", acq.soundSpeedMPerS);
  writeNumberAttribute(root, "t0_s", acq.t0S);
  writeNumberAttribute(root, "samples", acq.samples);
  writeNumberAttribute(root, "fractional_bandwidth", acq.fractionalBandwidth);
  writeNumberAttribute(root, "frames_per_volume", acq.framesPerVolume);
  for (const auto& [name, value] : extra) {
    if (const auto* text = std::get_if<std::string>(&value)) {
      writeStringAttribute(root, name.c_str(), *text);
    } else {
      writeNumberAttribute(root, name.c_str(), std::get<double>(value));
    }
  }
  H5Dataset angles = writeDoubleDataset(root, "angles_rad", acq.anglesRad);
  writeStringAttribute(angles.get(), "units", "rad");
  writeMetres(root, "element_x_m", acq.elementXM);
}

void writeMetres(hid_t root, const char* name, std::span<const double> values) {
  H5Dataset dataset = writeDoubleDataset(root, name, values);
  writeStringAttribute(dataset.get(), "units", "m");
}

std::vector<double> axis(int count, double first, double step) {
  std::vector<double> values(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    values[static_cast<std::size_t>(i)] = first + i * step;
  }
  return values;
}

}  // namespace cineflow::store

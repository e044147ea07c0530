#include "store/acquisition_layout.hpp"

#include <string>
#include <type_traits>
#include <variant>

namespace cineflow::store {

const char* bandwidthSource(const acquire::AcquisitionParams& acq) {
  if (!(acq.fractionalBandwidth > 0)) {
    return "default";  // the chain uses its default band
  }
  return acq.bandwidthMeasured ? "measured" : "recorded";
}

void writeAcquisition(hid_t root, const char* schema, const acquire::AcquisitionParams& acq,
                      const AttributeMap& extra) {
  writeStringAttribute(root, "schema", schema);
  writeNumberAttribute(root, "sampling_frequency_hz", acq.samplingFrequencyHz);
  writeNumberAttribute(root, "center_frequency_hz", acq.centerFrequencyHz);
  writeNumberAttribute(root, "sound_speed_m_s", acq.soundSpeedMPerS);
  writeNumberAttribute(root, "t0_s", acq.t0S);
  writeIntegerAttribute(root, "samples", acq.samples);
  writeNumberAttribute(root, "fractional_bandwidth", acq.fractionalBandwidth);
  writeStringAttribute(root, "bandwidth_source", bandwidthSource(acq));
  writeIntegerAttribute(root, "frames_per_volume", acq.framesPerVolume);
  for (const auto& [name, value] : extra) {
    std::visit(
        [root, &name](const auto& held) {
          using Held = std::decay_t<decltype(held)>;
          if constexpr (std::is_same_v<Held, std::string>) {
            writeStringAttribute(root, name.c_str(), held);
          } else if constexpr (std::is_same_v<Held, std::int64_t>) {
            writeIntegerAttribute(root, name.c_str(), held);
          } else {
            writeNumberAttribute(root, name.c_str(), held);
          }
        },
        value);
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

#include "store/acquisition_layout.hpp"

#include <string>
#include <type_traits>
#include <variant>

#include "store/study_group.hpp"

namespace cineflow::store {

const char* bandwidthSource(const acquire::AcquisitionParams& acq) {
  if (!(acq.fractionalBandwidth > 0)) {
    return "default";  // the chain uses its default band
  }
  return acq.bandwidthMeasured ? "measured" : "recorded";
}

namespace {

void writeAttributes(hid_t root, const AttributeMap& attributes) {
  for (const auto& entry : attributes) {
    const std::string& name = entry.first;  // (clang 14 cannot capture a structured binding)
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
        entry.second);
  }
}

}  // namespace

void writeMetadata(hid_t root, const char* schema, const FileMetadata& metadata,
                   const AttributeMap& extra) {
  writeStringAttribute(root, "schema", schema);
  AttributeMap attributes = metadata.attributes;
  for (const auto& [name, value] : extra) {
    attributes[name] = value;
  }
  writeAttributes(root, attributes);
  for (const MetadataArray& array : metadata.arrays) {
    H5Dataset dataset = writeDoubleDataset(root, array.name.c_str(), array.values);
    if (!array.units.empty()) {
      writeStringAttribute(dataset.get(), "units", array.units.c_str());
    }
  }
  if (metadata.study) {
    writeStudyGroup(root, *metadata.study);
  }
}

FileMetadata acquisitionMetadata(const acquire::AcquisitionParams& acq) {
  FileMetadata metadata;
  metadata.attributes = {
      {"sampling_frequency_hz", acq.samplingFrequencyHz},
      {"center_frequency_hz", acq.centerFrequencyHz},
      {"sound_speed_m_s", acq.soundSpeedMPerS},
      {"t0_s", acq.t0S},
      {"samples", std::int64_t{acq.samples}},
      {"fractional_bandwidth", acq.fractionalBandwidth},
      {"bandwidth_source", std::string(bandwidthSource(acq))},
      {"frames_per_volume", std::int64_t{acq.framesPerVolume}},
  };
  metadata.arrays = {{"angles_rad", acq.anglesRad, "rad"}, {"element_x_m", acq.elementXM, "m"}};
  return metadata;
}

void writeAcquisition(hid_t root, const char* schema, const acquire::AcquisitionParams& acq,
                      const AttributeMap& extra) {
  writeMetadata(root, schema, acquisitionMetadata(acq), extra);
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

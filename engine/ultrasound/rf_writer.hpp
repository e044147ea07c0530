#pragma once
// Writes a recording held in memory (ultrasound::ImportedRecording, e.g. a MATLAB import) as an RF
// recording in schema cineflow.rf/1 (docs/file-formats.md), which RfFileSource replays: /rf int16
// or float32 [frames][transmits][elements][samples] (one chunk per frame, so that a replay reads a
// frame at a time), the acquisition as root attributes (with the optional ones it knows:
// optionalRfAttributes), /angles_rad and /element_x_m. Written under a temporary name and renamed
// when complete; on failure nothing is left under `path` and StoreError says why (full disk,
// read-only folder).

#include <filesystem>

#include "store/bmode_writer.hpp"  // AttributeMap
#include "ultrasound/mat_import.hpp"

namespace cineflow::ultrasound {

// The optional acquisition attributes of cineflow.rf/1 that `acq` knows:
// fractional_bandwidth_percent (when recorded, not measured) and pulse_repetition_frequency_hz.
store::AttributeMap optionalRfAttributes(const acquire::AcquisitionParams& acq);

void writeRfRecording(const std::filesystem::path& path,
                      const ultrasound::ImportedRecording& recording,
                      const store::AttributeMap& extra = {});

}  // namespace cineflow::ultrasound

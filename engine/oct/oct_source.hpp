#pragma once
// OctSource: a FrameSource of spectral-domain OCT B-scans (oct_acquisition.hpp): each raw frame is
// uint16 [ascans][samples]. The OCT simulator and cineflow.oct/1 recordings derive from it; the
// OCT modality (oct_modality.hpp) images them.

#include <optional>

#include "acquire/frame_source.hpp"
#include "oct/oct_acquisition.hpp"
#include "oct/oct_recording.hpp"

namespace cineflow::oct {

class OctSource : public acquire::FrameSource {
 public:
  virtual const OctAcquisition& acquisition() const = 0;
  // The dispersion compensation the source states (a recording's attributes), which the OCT
  // modality's defaults then use; none for a live system, whose dispersion the operator finds.
  virtual std::optional<OctDispersion> recordedDispersion() const { return std::nullopt; }

  const modality::Modality& modality() const final;
  std::size_t frameBytes() const final {
    return acquisition().samplesPerFrame() * sizeof(std::uint16_t);
  }
  int framesPerVolume() const final { return acquisition().bscansPerVolume; }
};

// `source`'s origin as an OCT source; null when it is another modality's (or null).
const OctSource* asOct(const acquire::FrameSource* source);
// The same; throws std::invalid_argument naming the source otherwise.
const OctSource& requireOct(const acquire::FrameSource& source);

}  // namespace cineflow::oct

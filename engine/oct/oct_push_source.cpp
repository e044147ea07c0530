#include "oct/oct_push_source.hpp"

#include <stdexcept>

namespace cineflow::oct {

OctPushSource::OctPushSource(OctAcquisition acquisition, std::optional<OctDispersion> dispersion,
                             std::shared_ptr<acquire::PushChannel> channel)
    : PushReceiving(std::move(channel)),
      acquisition_(std::move(acquisition)),
      dispersion_(dispersion) {
  acquisition_.validate();
  checkChannel();
}

void OctPushSource::readFrame(std::uint64_t index, std::span<std::byte> dst,
                              acquire::SliceInfo& slice) {
  slice = {};
  PushReceiving::readFrame(index, dst, slice);
  const int perVolume = acquisition_.bscansPerVolume;
  if (perVolume > 0 && slice.sliceIndex == 0 && slice.elevationM == 0) {
    // Its place in the raster: the engine's index runs over frames the program dropped too.
    slice.sliceIndex = static_cast<int>(index % static_cast<std::uint64_t>(perVolume));
    slice.elevationM = (slice.sliceIndex - 0.5 * (perVolume - 1)) * acquisition_.elevationStepM;
  }
}

std::string OctPushSource::describe() const {
  return "pushed B-scans (" + std::to_string(acquisition_.ascans) + " A-scans of " +
         std::to_string(acquisition_.samples) + " samples)";
}

}  // namespace cineflow::oct

#pragma once
// OctPushSource: OCT B-scans a program pushes from its own acquisition loop (a spectrometer SDK's
// callback, a lab script), through an acquire::PushChannel the program keeps: uint16
// [ascans][samples] as `acquisition` describes them (oct_acquisition.hpp), each copied once into
// the engine's host slot. The program paces; its close() ends the run. A pushed frame's slice
// (its place in a volume) is counted here when the program leaves it 0.

#include <memory>
#include <optional>
#include <string>

#include "acquire/push_channel.hpp"
#include "oct/oct_source.hpp"

namespace cineflow::oct {

class OctPushSource final : public acquire::PushReceiving<OctSource> {
 public:
  // `acquisition` validated here (std::invalid_argument naming the field); the channel's frame
  // size must match (std::invalid_argument).
  OctPushSource(OctAcquisition acquisition, std::optional<OctDispersion> dispersion,
                std::shared_ptr<acquire::PushChannel> channel);

  const OctAcquisition& acquisition() const override { return acquisition_; }
  std::optional<OctDispersion> recordedDispersion() const override { return dispersion_; }
  void readFrame(std::uint64_t index, std::span<std::byte> dst, acquire::SliceInfo& slice) override;
  std::string describe() const override;

 private:
  OctAcquisition acquisition_;
  std::optional<OctDispersion> dispersion_;
};

}  // namespace cineflow::oct

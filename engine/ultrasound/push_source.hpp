#pragma once
// PushSource: plane-wave channel data a program pushes from its own acquisition loop (a research
// scanner's SDK, a script), through an acquire::PushChannel the program keeps. The frames are
// [transmits][elements][samples] of `sampleType`, as `params` describes them; each push is copied
// once, into the engine's host slot. The program paces (frameRateHz() 0); its close() ends the run.

#include <memory>
#include <string>

#include "acquire/push_channel.hpp"
#include "ultrasound/ultrasound_source.hpp"

namespace cineflow::ultrasound {

class PushSource final : public acquire::PushReceiving<UltrasoundSource> {
 public:
  // `params` validated here (std::invalid_argument naming the field); the channel's frame size
  // must match (std::invalid_argument).
  PushSource(acquire::AcquisitionParams params, acquire::SampleType sampleType,
             std::shared_ptr<acquire::PushChannel> channel);

  const acquire::AcquisitionParams& params() const override { return params_; }
  acquire::SampleType sampleType() const override { return sampleType_; }
  std::string describe() const override;

 private:
  acquire::AcquisitionParams params_;
  acquire::SampleType sampleType_;
};

}  // namespace cineflow::ultrasound

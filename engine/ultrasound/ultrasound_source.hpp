#pragma once
// UltrasoundSource: a FrameSource of plane-wave channel data (docs/ultrasound.md): each raw frame
// is [transmits][elements][samples] of sampleType(), described by params(). The simulator, RF
// recordings, MATLAB imports and test sources derive from it; the ultrasound modality
// (ultrasound_modality.hpp) images them.

#include "acquire/frame.hpp"
#include "acquire/frame_source.hpp"

namespace cineflow::ultrasound {

class UltrasoundSource : public acquire::FrameSource {
 public:
  virtual const acquire::AcquisitionParams& params() const = 0;
  virtual acquire::SampleType sampleType() const = 0;

  const modality::Modality& modality() const final;
  std::size_t frameBytes() const final {
    return params().samplesPerFrame() * sampleBytes(sampleType());
  }
  int framesPerVolume() const final { return params().framesPerVolume; }
};

// `source`'s origin as an ultrasound source; null when it is another modality's (or null).
const UltrasoundSource* asUltrasound(const acquire::FrameSource* source);
// `source` as an ultrasound source; throws std::invalid_argument naming the source otherwise.
const UltrasoundSource& requireUltrasound(const acquire::FrameSource& source);

}  // namespace cineflow::ultrasound

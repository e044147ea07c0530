#pragma once
// cineflow.PushSource: frames a script pushes from its own acquisition loop into an Engine
// (acquire/push_channel.hpp). The script describes its frames once (a cineflow.Acquisition for
// plane-wave channel data, or an OCT description dict with the raw-spectra keys), hands the
// PushSource to cineflow.Engine, starts it, and pushes NumPy arrays; each goes straight into a
// host ring slot (one copy), push() waiting as the engine's policy says (block: until a slot is
// free; drop: never, returning False for a frame with no slot).

#include <pybind11/pybind11.h>

#include <memory>
#include <optional>

#include "acquire/frame.hpp"
#include "acquire/frame_source.hpp"
#include "acquire/offered_sources.hpp"
#include "acquire/push_channel.hpp"
#include "oct/oct_acquisition.hpp"
#include "oct/oct_recording.hpp"

namespace cineflow::python {

struct PushSourceHandle {
  std::shared_ptr<acquire::PushChannel> channel;
  std::optional<acquire::AcquisitionParams> ultrasound;
  acquire::SampleType sampleType = acquire::SampleType::Int16;
  std::optional<oct::OctAcquisition> oct;
  std::optional<oct::OctDispersion> dispersion;
  // The offer of this source as "push://N" (acquire/offered_sources.hpp), shared by the handle's
  // copies (an Engine's, the GUI's opener): withdrawn when the last goes.
  std::shared_ptr<acquire::SourceOffer> offer;

  // A new engine source reading from the channel (each Engine.start() takes one).
  std::unique_ptr<acquire::FrameSource> open() const;
};

// Whether `source` is a cineflow.PushSource; its handle then (null otherwise).
const PushSourceHandle* pushSourceOf(const pybind11::handle& source);

void bindPushSource(pybind11::module_& m);

}  // namespace cineflow::python

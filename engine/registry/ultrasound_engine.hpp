#pragma once
// Ultrasound's view of a running engine, for the GUI, the command line and tests: the acquisition
// of its source and the imaging parameters in effect (the engine itself never names a modality).

#include "pipeline/engine.hpp"
#include "ultrasound/ultrasound_modality.hpp"

namespace cineflow::ultrasound {

// The acquisition of the engine's source; null without a source or with another modality's.
const acquire::AcquisitionParams* acquisitionOf(const pipeline::Engine& engine);
// The imaging parameters the engine uses (or will use at the next frame); the defaults when none
// are set, or when the engine runs another modality.
ultrasound::ImagingParams imagingOf(const pipeline::Engine& engine);
// Engine::setSettings with ultrasound's parameters (validated against the source now).
void setImaging(pipeline::Engine& engine, const ultrasound::ImagingParams& imaging);

}  // namespace cineflow::ultrasound

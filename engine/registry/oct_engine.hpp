#pragma once
// OCT's view of a running engine, for the GUI, the command line and tests: the acquisition of its
// source and the parameters in effect (the engine itself never names a modality).

#include "oct/oct_modality.hpp"
#include "pipeline/engine.hpp"

namespace cineflow::oct {

// The acquisition of the engine's source; null without a source or with another modality's.
const OctAcquisition* acquisitionOf(const pipeline::Engine& engine);
// The parameters the engine uses (or takes at the next frame); defaults when none are set or
// the engine runs another modality.
OctParams paramsOf(const pipeline::Engine& engine);
void setParams(pipeline::Engine& engine, OctParams params);

}  // namespace cineflow::oct

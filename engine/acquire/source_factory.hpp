#pragma once
// Opens a frame source from the operator's words: "sim" (the built-in phantom simulator) or the
// path of a cineflow.rf/1 recording. Shared by the command line and the GUI.

#include <functional>
#include <memory>
#include <string>

#include "acquire/frame_source.hpp"

namespace cineflow::acquire {

using ProgressFn = std::function<void(double fraction, const std::string& what)>;

// `frameRateHz` paces recordings (0: the source's own default). Throws SourceError with the reason.
std::unique_ptr<FrameSource> openSource(const std::string& spec, double frameRateHz = 0,
                                        const ProgressFn& progress = {});

}  // namespace cineflow::acquire

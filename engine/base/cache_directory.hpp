#pragma once
// Where Cineflow keeps what it can make again (the simulators' frames, the tuning history, the
// memo of file checks): $CINEFLOW_CACHE_DIR, else $XDG_CACHE_HOME/cineflow, else
// ~/.cache/cineflow, else <temp>/cineflow-cache. Reads the environment on every call; creates
// nothing.

#include <filesystem>

namespace cineflow::base {

std::filesystem::path cacheDirectory();

}  // namespace cineflow::base

#pragma once
// Names the calling thread (visible in gdb, perf, Nsight and /proc); truncated to 15 characters.

#include <string>

namespace cineflow::base {

void setCurrentThreadName(const std::string& name) noexcept;

}  // namespace cineflow::base

#pragma once
// FFTW's planner (plan creation and destruction) is not thread-safe; plan execution is. Every
// plan in the process is made and destroyed while holding this one mutex.

#include <mutex>

namespace cineflow::process::cpu {

std::mutex& fftwPlannerMutex();

}  // namespace cineflow::process::cpu

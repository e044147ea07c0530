#include "process/cpu/fftw_lock.hpp"

namespace cineflow::process::cpu {

std::mutex& fftwPlannerMutex() {
  static std::mutex mutex;
  return mutex;
}

}  // namespace cineflow::process::cpu

#include "base/thread_name.hpp"

#include <pthread.h>

namespace cineflow::base {

void setCurrentThreadName(const std::string& name) noexcept {
  pthread_setname_np(pthread_self(), name.substr(0, 15).c_str());
}

}  // namespace cineflow::base

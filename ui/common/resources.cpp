#include "common/resources.hpp"

#include <QtGlobal>

// Q_INIT_RESOURCE declares a function in the global namespace, so it cannot be used inside ours.
static void initCineflowResources() {
  Q_INIT_RESOURCE(cineflow);
}

namespace cineflow::ui {

void initResources() {
  static const bool initialised = [] {
    initCineflowResources();
    return true;
  }();
  (void)initialised;
}

}  // namespace cineflow::ui

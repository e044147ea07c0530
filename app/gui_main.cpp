// GUI mode: the operator workstation (ui/shell/workstation.hpp), what it reports printed as the
// command line prints: errors on stderr, the screenshot mode's result on stdout.

#include "gui_main.hpp"

#include <cstdio>

namespace cineflow::app {

int runGui(int argc, char** argv, const GuiOptions& options) {
  const ui::WorkstationResult result = ui::runWorkstation(argc, argv, options);
  if (!result.error.empty()) {
    std::fprintf(stderr, "cineflow: %s\n", result.error.c_str());
  }
  if (!result.notice.empty()) {
    std::printf("cineflow: %s\n", result.notice.c_str());
  }
  return result.status;
}

}  // namespace cineflow::app

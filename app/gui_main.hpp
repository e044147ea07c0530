#pragma once
// GUI mode entry point: the operator workstation (ui/shell/workstation.hpp) on the command line's
// options, its messages printed.

#include "shell/workstation.hpp"

namespace cineflow::app {

using GuiOptions = ui::WorkstationOptions;

// Runs the Qt event loop; returns the process exit code.
int runGui(int argc, char** argv, const GuiOptions& options);

}  // namespace cineflow::app

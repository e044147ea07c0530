#pragma once
// GUI mode entry point (implemented with the ui library).

#include <cstdint>
#include <string>

#include "tune/variant_pins.hpp"

namespace cineflow::app {

struct GuiOptions {
  std::string input = "sim";     // "sim" or a cineflow.rf/1 file
  std::string backend = "auto";  // auto | cpu | cuda
  std::string screenshotPath;    // when set: run `afterFrames` frames, save the window, exit
  int afterFrames = 30;
  std::string preset;                    // applied once the source is open (a preset's name)
  bool tune = true;                      // pick stages' implementations by measurement (tune/)
  std::uint32_t gpuMemoryBudgetMiB = 0;  // --gpu-memory-budget; 0: no budget
  tune::VariantPins variantPins;         // --variant, --variants
};

// Runs the Qt event loop; returns the process exit code.
int runGui(int argc, char** argv, const GuiOptions& options);

}  // namespace cineflow::app

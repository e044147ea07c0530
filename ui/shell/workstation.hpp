#pragma once
// The operator workstation as one call: the Qt application, the main window on a source, and its
// event loop until the window closes. The cineflow program's GUI mode (app/gui_main.cpp) and
// cineflow.gui() in a script (python/py_gui.cpp, on the script's PushSource as "push://N") both
// run it. Also its screenshot mode, used by the documentation and smoke tests: image until
// `afterFrames` frames were shown, save the window as PNG, close.
//
// Call from the process's main thread with no QApplication alive; it makes one and destroys it
// before returning (the engine is stopped while the application still exists). Prints nothing but
// the backend's fallback notice (stderr); what went wrong comes back in the result.

#include <cstdint>
#include <functional>
#include <string>

#include "pipeline/engine_types.hpp"
#include "tune/variant_pins.hpp"

namespace cineflow::ui {

struct WorkstationOptions {
  std::string input = "sim";     // what the window opens (registry/source_factory.hpp)
  std::string backend = "auto";  // auto | cpu | cuda
  std::string screenshotPath;    // when set: image `afterFrames` frames, save the window, close
  int afterFrames = 30;
  std::string preset;                    // applied once the source is open (a preset's name)
  bool tune = true;                      // pick stages' implementations by measurement (tune/)
  std::uint32_t gpuMemoryBudgetMiB = 0;  // --gpu-memory-budget; 0: no budget
  tune::VariantPins variantPins;         // --variant, --variants
  // --igtl-port: the OpenIGTLink server on at start (Acquisition > OpenIGTLink); 0: off.
  int igtlPort = 0;
  bool igtlFloatDb = false;          // --igtl-pixels db
  bool igtlThisMachineOnly = false;  // --igtl-bind 127.0.0.1
  // Asked every 100 ms on the GUI thread while the window is open: true closes the window (a
  // script's Ctrl+C). Empty: never asked.
  std::function<bool()> interrupted;
};

struct WorkstationResult {
  // 0: the window was closed (or the screenshot saved); 1: it could not open, or in screenshot
  // mode an error or a silent source ended it; 2: a bad option (a preset that does not exist).
  int status = 0;
  std::string error;         // why, when status is not 0: one paragraph
  std::string notice;        // what screenshot mode saved: "saved PATH (1600x1000) after 30 frames"
  bool interrupted = false;  // `interrupted` closed the window
  std::uint64_t framesDisplayed = 0;
  pipeline::EngineStats stats;  // the engine's figures when the window closed
};

// `argc` and `argv` must outlive the call (Qt keeps them).
WorkstationResult runWorkstation(int& argc, char** argv, const WorkstationOptions& options);

}  // namespace cineflow::ui

// cineflow: command line, then GUI or headless mode. Nothing else lives here.
#include <cstdio>
#include <exception>
#include <iostream>
#include <string_view>

#include "acquire/child_process.hpp"
#include "batch/batch_command.hpp"
#include "bench.hpp"
#include "cameras_command.hpp"
#include "check_file.hpp"
#include "cli_options.hpp"
#include "convert.hpp"
#include "headless.hpp"
#include "registry/file_check.hpp"
#include "soak/soak_command.hpp"
#include "tune_command.hpp"
#if CINEFLOW_HAVE_UI
#include "gui_main.hpp"
#endif

int main(int argc, char** argv) {
  using namespace cineflow::app;
  // The child that reads a file from outside first; every other mode has its files read so.
  if (argc >= 2 && std::string_view(argv[1]) == "check-file") {
    return runCheckFile(argc, argv);
  }
  cineflow::acquire::enableFileChecks(cineflow::acquire::currentExecutable());
  if (argc >= 2 && std::string_view(argv[1]) == "bench") {
    return runBench(argc, argv);
  }
  if (argc >= 2 && std::string_view(argv[1]) == "convert") {
    return runConvert(argc, argv);
  }
  if (argc >= 2 && std::string_view(argv[1]) == "tune") {
    return runTune(argc, argv);
  }
  if (argc >= 2 && std::string_view(argv[1]) == "batch") {
    return runBatch(argc, argv);
  }
  if (argc >= 2 && std::string_view(argv[1]) == "cameras") {
    return runCameras(argc, argv);
  }
  if (argc >= 2 && std::string_view(argv[1]) == "soak") {
    return runSoak(argc, argv);
  }
  CliOptions options;
  try {
    options = parseCommandLine(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "cineflow: " << e.what() << '\n';
    return 2;
  }
  if (options.help) {
    std::fputs(usageText(), stdout);
    return 0;
  }
  if (options.version) {
    std::printf("cineflow %s\n", CINEFLOW_VERSION);
    return 0;
  }
  if (options.headless) {
    return runHeadless(options);
  }
#if CINEFLOW_HAVE_UI
  GuiOptions gui;
  gui.input = options.input;
  gui.backend = options.backend;
  gui.screenshotPath = options.screenshotPath;
  gui.afterFrames = options.afterFrames;
  gui.preset = options.preset;
  gui.tune = options.tune;
  gui.gpuMemoryBudgetMiB = options.gpuMemoryBudgetMiB;
  gui.variantPins = options.variantPins;
  gui.igtlPort = options.igtlPort.value_or(0);
  gui.igtlFloatDb = options.igtlPixels == "db";
  gui.igtlThisMachineOnly = options.igtlBind == "127.0.0.1";
  if (options.igtlPort && options.igtlBind != "0.0.0.0" && options.igtlBind != "127.0.0.1") {
    std::fprintf(stderr,
                 "cineflow: --igtl-bind: the window listens on every interface (0.0.0.0) "
                 "or this machine only (127.0.0.1)\n");
    return 2;
  }
  return runGui(argc, argv, gui);
#else
  std::cerr << "cineflow: this build has no GUI; use --headless\n";
  return 2;
#endif
}

// cineflow.gui(): the operator workstation in a script's process, on the script's source (a
// PushSource it pushes into from another thread, by its "push://N" name, or any source the
// command line takes). The window's event loop runs on the calling (main) thread with the GIL
// released, so the script's own threads go on pushing; Ctrl+C closes the window and raises
// KeyboardInterrupt in the script.

#include <pybind11/stl.h>

#include <optional>
#include <string>

#include "py_common.hpp"
#include "py_modules.hpp"
#include "py_push_source.hpp"
#if CINEFLOW_PYTHON_GUI
#include <QCoreApplication>

#include "shell/workstation.hpp"
#endif

namespace cineflow::python {
namespace {

using namespace pybind11::literals;

#if CINEFLOW_PYTHON_GUI
py::dict gui(const py::object& source, const std::string& backend,
             const std::optional<std::string>& preset, bool tune,
             const std::optional<std::string>& screenshot, int afterFrames) {
  const py::module_ threading = py::module_::import("threading");
  if (!threading.attr("current_thread")().is(threading.attr("main_thread")())) {
    throw std::runtime_error(
        "cineflow.gui() runs the window's event loop, which belongs to the main thread: call it "
        "from the main thread and push frames from another");
  }
  if (QCoreApplication::instance() != nullptr) {
    throw std::runtime_error(
        "cineflow.gui(): this process already runs a Qt application (one per process)");
  }
  ui::WorkstationOptions options;
  std::optional<PushSourceHandle> pushed;  // keeps the offer standing while the window is open
  if (const PushSourceHandle* handle = pushSourceOf(source)) {
    pushed = *handle;
    options.input = handle->offer->spec();
  } else if (py::isinstance<py::str>(source)) {
    options.input = source.cast<std::string>();
  } else {
    throw py::type_error(
        "cineflow.gui(source): a cineflow.PushSource or what --input takes (\"sim\", a "
        "recording's path, \"genicam://...\"), not " +
        py::str(py::type::of(source)).cast<std::string>());
  }
  options.backend = backend;
  options.preset = preset.value_or("");
  options.tune = tune;
  options.screenshotPath = screenshot.value_or("");
  options.afterFrames = afterFrames;
  std::optional<py::error_already_set> signalled;
  options.interrupted = [&signalled] {
    py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) {
      signalled.emplace();  // takes the exception (KeyboardInterrupt) the signal's handler raised
      return true;
    }
    return false;
  };
  // Qt keeps argc and argv for the application's life.
  static int argc = 1;
  static char name[] = "cineflow";
  static char* argv[] = {name, nullptr};
  ui::WorkstationResult result;
  {
    py::gil_scoped_release released;
    result = ui::runWorkstation(argc, argv, options);
  }
  if (signalled) {
    throw std::move(*signalled);
  }
  if (result.status == 2) {
    throw py::value_error("cineflow.gui(): " + result.error);
  }
  if (result.status != 0) {
    throw std::runtime_error("cineflow.gui(): " + result.error);
  }
  py::dict out = engineStatsDict(result.stats);
  out["frames_displayed"] = result.framesDisplayed;
  out["screenshot"] = screenshot ? py::cast(*screenshot) : py::none();
  return out;
}
#endif

}  // namespace

void bindGui(py::module_& m) {
#if CINEFLOW_PYTHON_GUI
  m.def("gui", &gui, "source"_a = py::str("sim"), py::kw_only(), "backend"_a = "auto",
        "preset"_a = py::none(), "tune"_a = true, "screenshot"_a = py::none(),
        "after_frames"_a = 30,
        "Opens the operator workstation on `source` (a cineflow.PushSource the script pushes "
        "into from another thread, or what --input takes) and runs it until the window is "
        "closed; then returns the engine's last figures (as Engine.stats()) and "
        "frames_displayed. Call from the main thread; the script's other threads run meanwhile. "
        "Ctrl+C closes the window and raises KeyboardInterrupt. backend: \"auto\", \"cpu\" or "
        "\"cuda\"; preset: a preset's name, applied once the source is open; screenshot: a PNG "
        "path: image `after_frames` frames, save the window there and close. RuntimeError when "
        "the window cannot open here (no display, no OpenGL) or, with screenshot, when the run "
        "fails.");
#else
  m.def(
      "gui",
      [](const py::args&, const py::kwargs&) -> py::object {
        throw std::runtime_error("cineflow.gui(): this Cineflow was built without its GUI");
      },
      "This Cineflow was built without its GUI: raises RuntimeError.");
#endif
}

}  // namespace cineflow::python

// `import cineflow`: the engine as a Python module (python/CMakeLists.txt).
#include <pybind11/pybind11.h>

#include <stdexcept>

#include "acquire/frame_source.hpp"
#include "py_modules.hpp"
#include "py_push_source.hpp"

PYBIND11_MODULE(cineflow, m) {
  m.doc() =
      "Cineflow's imaging engine from Python: sources, engines with frame callbacks, and "
      "arrays in, images out (bmode, beamform). Errors carry the command line's messages.";
  m.attr("__version__") = CINEFLOW_VERSION;
  // A source that cannot be read is an OSError-like failure to the script: RuntimeError with the
  // reader's message (the file, the object, what was expected).
  auto sourceError = pybind11::register_exception<cineflow::acquire::SourceError>(
      m, "SourceError", PyExc_RuntimeError);
  sourceError.doc() =
      "A source that cannot be opened or read: a missing, truncated or malformed file, a MATLAB "
      "field that does not map, a sender that went away. A RuntimeError whose message is the "
      "reader's, as the command line prints it (the file, the object, what was expected).";
  cineflow::python::bindBackends(m);
  cineflow::python::bindAcquisition(m);
  cineflow::python::bindImage(m);
  cineflow::python::bindImaging(m);
  cineflow::python::bindFlow(m);
  cineflow::python::bindDeviceArrays(m);
  cineflow::python::bindTransfers(m);
  cineflow::python::bindVolumes(m);
  cineflow::python::bindFrames(m);
  cineflow::python::bindPushSource(m);  // before Engine, which takes one
  cineflow::python::bindEngine(m);
  cineflow::python::bindGui(m);
  cineflow::python::shortenArgumentErrors(m);
}

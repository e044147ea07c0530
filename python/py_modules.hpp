#pragma once
// The parts of the `cineflow` Python module, each adding its names (module.cpp calls them).

#include <pybind11/pybind11.h>

namespace cineflow::oct {
class OctSource;
}
namespace cineflow::process {
struct ImageGeometry;
}

namespace cineflow::python {

void bindBackends(pybind11::module_& m);      // backend_info
void bindAcquisition(pybind11::module_& m);   // Acquisition, Source
void bindImage(pybind11::module_& m);         // Image (before bindImaging)
void bindImaging(pybind11::module_& m);       // bmode, beamform
void bindFlow(pybind11::module_& m);          // doppler, oct_bscan, OctAcquisition
void bindFrames(pybind11::module_& m);        // Frame
void bindEngine(pybind11::module_& m);        // Engine
void bindVolumes(pybind11::module_& m);       // Volume, Store
void bindDeviceArrays(pybind11::module_& m);  // DeviceArray
void bindTransfers(pybind11::module_& m);     // push, pull, create, memory
void bindGui(pybind11::module_& m);           // gui (the workstation on a script's source)
// Last: wraps every function bound before it so that a call pybind11 cannot match is refused in
// one line (py_short_errors.cpp).
void shortenArgumentErrors(pybind11::module_& m);

// `result` (a NumPy array bmode or beamform made on `geometry`) as a cineflow.Image carrying its
// axes; a DeviceArray is returned as it is (py_image.cpp).
pybind11::object withAxes(pybind11::object result, const process::ImageGeometry& geometry);

// An OCT source's cineflow.OctAcquisition (py_flow.cpp), for Source.acquisition.
pybind11::object octInputOf(const oct::OctSource& source);

}  // namespace cineflow::python

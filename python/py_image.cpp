// cineflow.Image: the NumPy array bmode and beamform return, carrying its axes as h5py datasets
// carry attributes: x_m and z_m, the pixel centres in metres. It is an ndarray (a subclass), so
// every NumPy use of it is unchanged; a result that keeps the image's shape (a copy, arithmetic)
// keeps the axes, one that changes it (a slice, a reduction) drops them rather than mislabel.
#include <pybind11/eval.h>
#include <pybind11/numpy.h>

#include "py_common.hpp"
#include "py_modules.hpp"

namespace cineflow::python {

void bindImage(py::module_& m) {
  py::dict scope;
  scope["numpy"] = py::module_::import("numpy");
  py::exec(R"py(
class Image(numpy.ndarray):
    """An image as a NumPy array ([nz][nx], or [layers][nz][nx]) that carries its axes: x_m and
    z_m, the pixel centres in metres (lateral and depth), as the command line's output file
    stores them. A result of the same shape keeps them; a slice or a reduction has None."""

    x_m = None
    z_m = None

    def __array_finalize__(self, source):
        if source is not None and getattr(source, "shape", None) == self.shape:
            self.x_m = getattr(source, "x_m", None)
            self.z_m = getattr(source, "z_m", None)

    def __array_wrap__(self, out, context=None):
        if out.ndim == 0:  # a reduction (image.max()): a plain NumPy scalar
            return out[()]
        return super().__array_wrap__(out, context)
)py",
           scope);
  py::object image = scope["Image"];
  image.attr("__module__") = "cineflow";
  m.attr("Image") = image;
}

py::object withAxes(py::object result, const process::ImageGeometry& geometry) {
  if (!py::isinstance<py::array>(result)) {
    return result;  // a DeviceArray: the axes are the grid's, as the call was given it
  }
  py::object image = result.attr("view")(py::module_::import("cineflow").attr("Image"));
  py::array_t<double> x(geometry.nx), z(geometry.nz);
  for (int i = 0; i < geometry.nx; ++i) {
    x.mutable_at(i) = geometry.x0 + i * geometry.dx;
  }
  for (int i = 0; i < geometry.nz; ++i) {
    z.mutable_at(i) = geometry.z0 + i * geometry.dz;
  }
  image.attr("x_m") = x;
  image.attr("z_m") = z;
  return image;
}

}  // namespace cineflow::python

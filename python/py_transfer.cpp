// Device arrays as pyclesperanto offers them: cineflow.push (host -> a backend's memory),
// cineflow.pull (back to NumPy), cineflow.create (zeroed), and the memory readout (how much the
// backend has free, and how much of it the script's arrays hold).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "py_common.hpp"
#include "py_device.hpp"
#include "py_modules.hpp"

namespace cineflow::python {
namespace {

using namespace pybind11::literals;

std::shared_ptr<DeviceArray> push(const py::handle& object, const std::string& backendName) {
  compute::Backend& backend = backendFor(backendName);
  if (py::isinstance<DeviceArray>(object)) {
    const auto array = object.cast<std::shared_ptr<DeviceArray>>();
    if (array->kind() == backend.kind() && array->writable()) {
      return array;  // already there, and the script's own
    }
  }
  // Any host array of a kept dtype, in any layout: push copies, so it takes a C-ordered copy of
  // a strided view; float64 becomes float32 (as pyclesperanto's push does).
  py::array host = py::array::ensure(object, py::array::c_style);
  if (!host) {
    throw py::type_error("push takes a NumPy array (or anything numpy.asarray takes), not " +
                         std::string(py::str(py::type::of(object).attr("__name__"))));
  }
  if (host.dtype().equal(py::dtype("float64"))) {
    host = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(host);
  }
  const Element element = elementNamed(py::str(host.dtype()), "dtype");
  std::vector<std::int64_t> shape(host.shape(), host.shape() + host.ndim());
  auto array = DeviceArray::allocate(backend, std::move(shape), element);
  void* destination = array->mutableData();
  const void* source = host.data();
  const std::size_t bytes = array->bytes();
  py::gil_scoped_release released;
  backend.copyBlocking(destination, source, bytes);
  return array;
}

py::array pull(const py::handle& object) {
  if (!py::isinstance<DeviceArray>(object)) {
    if (py::isinstance<py::array>(object)) {
      return py::reinterpret_borrow<py::array>(object).attr("copy")();
    }
    throw py::type_error("pull takes a cineflow.DeviceArray (or a NumPy array), not " +
                         std::string(py::str(py::type::of(object).attr("__name__"))) +
                         " (a CuPy array: cupy.asnumpy)");
  }
  return copyToHost(*object.cast<std::shared_ptr<DeviceArray>>());
}

// `dtype` as NumPy takes it: a name ("float32"), a type (numpy.float32) or a numpy.dtype.
std::shared_ptr<DeviceArray> create(const std::vector<std::int64_t>& shape, const py::object& dtype,
                                    const std::string& backendName) {
  std::string name;
  try {
    name = py::str(py::dtype::from_args(dtype));
  } catch (const py::error_already_set&) {
    throw py::type_error("dtype " + std::string(py::repr(dtype)) + " is not a NumPy dtype");
  }
  return DeviceArray::allocate(backendFor(backendName), shape, elementNamed(name, "dtype"));
}

py::dict memory(const std::string& backendName) {
  compute::Backend& backend = backendFor(backendName);
  const compute::DeviceMemoryInfo info = backend.memoryInfo();
  py::dict out;
  out["backend"] = kindName(backend.kind());
  out["device"] = backend.deviceName();
  out["free_bytes"] = info.freeBytes;
  out["total_bytes"] = info.totalBytes;
  out["arrays_bytes"] = DeviceArray::heldBytes(backend.kind());
  return out;
}

}  // namespace

void bindTransfers(py::module_& m) {
  m.def("push", &push, "array"_a, "backend"_a = "auto",
        "A copy of a host array in the backend's memory (the GPU's on CUDA): a "
        "cineflow.DeviceArray of float32, int16, uint16 or complex64 (float64 becomes float32). "
        "A DeviceArray already on that backend is returned as it is.");
  m.def("pull", &pull, "array"_a, "A NumPy copy of a cineflow.DeviceArray (from the GPU on CUDA).");
  m.def("create", &create, "shape"_a, "dtype"_a = "float32", "backend"_a = "auto",
        "A new zeroed cineflow.DeviceArray of `shape` and `dtype` in the backend's memory; "
        "`dtype` as NumPy takes it: \"float32\", numpy.float32 or numpy.dtype(\"float32\").");
  m.def("memory", &memory, "backend"_a = "auto",
        "The backend's memory readout: free and total bytes (the GPU's on CUDA, the host's on "
        "the cpu backend) and the bytes the script's DeviceArrays hold there.");
}

}  // namespace cineflow::python

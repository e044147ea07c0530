#include "py_device.hpp"
#include "py_modules.hpp"

#include <dlpack.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <stdexcept>
#include <string>

namespace cineflow::python {
namespace py = pybind11;

DeviceView::DeviceView(const float* data, std::vector<std::int64_t> shape,
                       compute::BackendKind kind, int device, std::shared_ptr<const void> owner,
                       std::function<bool()> valid)
    : data_(data),
      shape_(std::move(shape)),
      kind_(kind),
      device_(device),
      owner_(std::move(owner)),
      valid_(std::move(valid)) {}

const float* DeviceView::data() const {
  if (valid_ && !valid_()) {
    throw std::runtime_error(
        "this array's memory went back to Cineflow (its volume was handed back when the "
        "callback returned, or discarded): copy what you keep, or keep() the volume");
  }
  return data_;
}

std::size_t DeviceView::count() const {
  std::size_t count = 1;
  for (const std::int64_t extent : shape_) {
    count *= static_cast<std::size_t>(extent);
  }
  return count;
}

namespace {

// What a DLPack capsule owns: the tensor, its shape, and a reference to the view.
struct Export {
  DLManagedTensor tensor{};
  std::vector<std::int64_t> shape;
  py::object view;
};

void deleteExport(DLManagedTensor* tensor) {
  auto* owned = static_cast<Export*>(tensor->manager_ctx);
  py::gil_scoped_acquire gil;
  delete owned;
}

py::capsule dlpackOf(const std::shared_ptr<DeviceView>& view, const py::object& self) {
  auto* owned = new Export;
  owned->shape = view->shape();
  owned->view = self;
  DLTensor& t = owned->tensor.dl_tensor;
  t.data = const_cast<float*>(view->data());
  t.device = {view->onDevice() ? kDLCUDA : kDLCPU, view->onDevice() ? view->device() : 0};
  t.ndim = static_cast<int>(owned->shape.size());
  t.dtype = {kDLFloat, 32, 1};
  t.shape = owned->shape.data();
  t.strides = nullptr;  // C order
  t.byte_offset = 0;
  owned->tensor.manager_ctx = owned;
  owned->tensor.deleter = deleteExport;
  // A capsule a consumer never took ("dltensor" still its name) frees the export itself.
  return py::capsule(&owned->tensor, "dltensor", [](PyObject* capsule) {
    if (PyCapsule_IsValid(capsule, "dltensor") != 0) {
      auto* tensor = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
      tensor->deleter(tensor);
    }
  });
}

py::dict interfaceOf(const DeviceView& view, int version) {
  py::dict interface;
  interface["shape"] = py::tuple(py::cast(view.shape()));
  interface["typestr"] = "<f4";
  interface["data"] = py::make_tuple(reinterpret_cast<std::uintptr_t>(view.data()), true);
  interface["strides"] = py::none();
  interface["version"] = version;
  return interface;
}

}  // namespace

py::object hostArrayOrView(const std::shared_ptr<DeviceView>& view) {
  py::object self = py::cast(view);
  if (view->onDevice()) {
    return self;
  }
  std::vector<py::ssize_t> shape(view->shape().begin(), view->shape().end());
  py::array array(py::dtype::of<float>(), shape, {}, view->data(), self);
  py::detail::array_proxy(array.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return array;
}

void bindDeviceView(py::module_& m) {
  using namespace pybind11::literals;
  py::class_<DeviceView, std::shared_ptr<DeviceView>>(
      m, "DeviceView",
      "A read-only float32 array in the engine's memory, shared without a copy: "
      "__cuda_array_interface__ and DLPack on the CUDA backend (cupy.asarray, "
      "torch.from_dlpack), the NumPy array interface and DLPack on the CPU backend.")
      .def_property_readonly("shape",
                             [](const DeviceView& v) { return py::tuple(py::cast(v.shape())); })
      .def_property_readonly("dtype", [](const DeviceView&) { return py::dtype::of<float>(); })
      .def_property_readonly(
          "ptr", [](const DeviceView& v) { return reinterpret_cast<std::uintptr_t>(v.data()); })
      .def_property_readonly("__cuda_array_interface__",
                             [](const DeviceView& v) {
                               if (!v.onDevice()) {
                                 throw py::attribute_error(
                                     "host memory (the cpu backend): use the NumPy array "
                                     "interface or DLPack");
                               }
                               // The data are complete when the view is handed out: no stream
                               // to wait on (version 3: stream None).
                               py::dict interface = interfaceOf(v, 3);
                               interface["stream"] = py::none();
                               return interface;
                             })
      .def_property_readonly("__array_interface__",
                             [](const DeviceView& v) {
                               if (v.onDevice()) {
                                 throw py::attribute_error(
                                     "device memory (the cuda backend): use "
                                     "__cuda_array_interface__ or DLPack, or copy it to the host");
                               }
                               return interfaceOf(v, 3);
                             })
      .def("__dlpack_device__",
           [](const DeviceView& v) {
             return py::make_tuple(static_cast<int>(v.onDevice() ? kDLCUDA : kDLCPU),
                                   v.onDevice() ? v.device() : 0);
           })
      .def(
          "__dlpack__",
          [](const py::object& self, const py::object& /*stream*/) {
            // Complete before it is lent: no stream to order with the consumer's.
            return dlpackOf(self.cast<std::shared_ptr<DeviceView>>(), self);
          },
          "stream"_a = py::none())
      .def("__len__", [](const DeviceView& v) { return v.shape().empty() ? 0 : v.shape()[0]; });
}

}  // namespace cineflow::python

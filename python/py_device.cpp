#include "py_device.hpp"

#include <dlpack.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <array>
#include <stdexcept>
#include <string>

#include "compute/buffer.hpp"
#include "py_common.hpp"
#include "py_elements.hpp"
#include "py_modules.hpp"
#if CINEFLOW_HAVE_CUDA
#include "compute/cuda/cuda_backend.hpp"
#endif

namespace cineflow::python {
namespace py = pybind11;

namespace {

// Bytes the script holds in arrays it owns, per backend kind.
std::array<std::atomic<std::size_t>, 2>& held() {
  static std::array<std::atomic<std::size_t>, 2> bytes{};
  return bytes;
}
std::size_t kindIndex(compute::BackendKind kind) {
  return kind == compute::BackendKind::Cuda ? 1 : 0;
}

// The memory an owned DeviceArray stands on, counted while it lives.
struct OwnedMemory {
  OwnedMemory(compute::Backend& backend, std::size_t bytes)
      : buffer(backend, bytes), kind(backend.kind()) {
    held()[kindIndex(kind)].fetch_add(buffer.bytes());
  }
  ~OwnedMemory() { held()[kindIndex(kind)].fetch_sub(buffer.bytes()); }
  OwnedMemory(const OwnedMemory&) = delete;
  OwnedMemory& operator=(const OwnedMemory&) = delete;
  compute::DeviceBuffer<std::byte> buffer;
  compute::BackendKind kind;
};

// What a DLPack capsule owns: the tensor, its shape, and a reference to the array.
struct Export {
  DLManagedTensor tensor{};
  std::vector<std::int64_t> shape;
  py::object array;
};

void deleteExport(DLManagedTensor* tensor) {
  auto* owned = static_cast<Export*>(tensor->manager_ctx);
  py::gil_scoped_acquire gil;
  delete owned;
}

py::capsule dlpackOf(const std::shared_ptr<DeviceArray>& array, const py::object& self) {
  void* data = const_cast<void*>(array->data());  // raises before anything is made
  auto* owned = new Export;
  owned->shape = array->shape();
  owned->array = self;
  DLTensor& t = owned->tensor.dl_tensor;
  t.data = data;
  t.device = {array->onDevice() ? kDLCUDA : kDLCPU, array->onDevice() ? array->device() : 0};
  t.ndim = static_cast<int>(owned->shape.size());
  t.dtype = infoOf(array->element()).dlpack;
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

py::dict interfaceOf(const DeviceArray& array, int version) {
  py::dict interface;
  interface["shape"] = py::tuple(py::cast(array.shape()));
  interface["typestr"] = infoOf(array.element()).typestr;
  interface["data"] =
      py::make_tuple(reinterpret_cast<std::uintptr_t>(array.data()), !array.writable());
  interface["strides"] = py::none();
  interface["version"] = version;
  return interface;
}

}  // namespace

std::size_t sizeOf(Element element) {
  return infoOf(element).size;
}
const char* nameOf(Element element) {
  return infoOf(element).name;
}

Element elementNamed(const std::string& name, const std::string& what) {
  if (const ElementInfo* info = findElement([&](const ElementInfo& e) { return name == e.name; })) {
    return info->element;
  }
  throw py::type_error(what + " '" + name + "' is not one Cineflow keeps: " + allNames());
}

int deviceOf([[maybe_unused]] const compute::Backend& backend) {
#if CINEFLOW_HAVE_CUDA
  if (const auto* cuda = dynamic_cast<const compute::cuda::CudaBackend*>(&backend)) {
    return cuda->device();
  }
#endif
  return 0;
}

const char* kindName(compute::BackendKind kind) {
  return kind == compute::BackendKind::Cuda ? "cuda" : "cpu";
}

DeviceArray::DeviceArray(const void* data, std::vector<std::int64_t> shape, Element element,
                         compute::BackendKind kind, int device, std::shared_ptr<const void> owner,
                         std::function<bool()> valid)
    : data_(data),
      shape_(std::move(shape)),
      element_(element),
      kind_(kind),
      device_(device),
      owner_(std::move(owner)),
      valid_(std::move(valid)) {}

std::shared_ptr<DeviceArray> DeviceArray::allocate(compute::Backend& backend,
                                                   std::vector<std::int64_t> shape,
                                                   Element element) {
  std::size_t count = 1;
  for (const std::int64_t extent : shape) {
    if (extent < 0) {
      throw py::value_error("an array's extents are not negative: " + textOf(shape));
    }
    count *= static_cast<std::size_t>(extent);
  }
  auto memory =
      std::make_shared<OwnedMemory>(backend, std::max<std::size_t>(1, count) * sizeOf(element));
  backend.zeroBlocking(memory->buffer.data(), memory->buffer.bytes());
  auto array = std::make_shared<DeviceArray>(memory->buffer.data(), std::move(shape), element,
                                             backend.kind(), deviceOf(backend), memory);
  array->backend_ = &backend;
  return array;
}

const DeviceArray& DeviceArray::checked() const {
  if (handedBack()) {
    throw std::runtime_error(
        "this array's memory went back to Cineflow (its volume was handed back when the "
        "callback returned, or discarded): copy what you keep, or keep() the volume");
  }
  return *this;
}

const void* DeviceArray::data() const {
  return checked().data_;
}

void* DeviceArray::mutableData() {
  if (!writable()) {
    throw py::value_error("this array is the engine's, lent read-only: copy it to change it");
  }
  return const_cast<void*>(data());
}

std::size_t DeviceArray::count() const {
  std::size_t count = 1;
  for (const std::int64_t extent : shape_) {
    count *= static_cast<std::size_t>(extent);
  }
  return count;
}

std::size_t DeviceArray::heldBytes(compute::BackendKind kind) {
  return held()[kindIndex(kind)].load();
}

py::array copyToHost(const DeviceArray& array) {
  std::vector<py::ssize_t> shape(array.shape().begin(), array.shape().end());
  py::array host(py::dtype(nameOf(array.element())), shape);
  const void* source = array.data();
  void* destination = host.mutable_data();
  const std::size_t bytes = array.bytes();
  const compute::BackendKind kind = array.kind();
  {
    py::gil_scoped_release released;
    // Any backend of the array's kind copies it (the memory spaces are one per kind).
    backendFor(kind == compute::BackendKind::Cuda ? "cuda" : "cpu")
        .copyBlocking(destination, source, bytes);
  }
  return host;
}

py::object hostCopyOrView(const std::shared_ptr<DeviceArray>& array) {
  if (array->onDevice()) {
    return py::cast(array);
  }
  py::array host = copyToHost(*array);
  makeReadOnly(host);
  return host;
}

void makeReadOnly(py::array& array) {
  py::detail::array_proxy(array.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
}

OutputArray::OutputArray(const InputArray& input, compute::Backend& backend,
                         std::vector<std::int64_t> shape, Element element) {
  if (input.inBackendMemory) {
    auto array = DeviceArray::allocate(backend, std::move(shape), element);
    data_ = array->mutableData();
    result_ = py::cast(array);
    device_ = std::move(array);
    return;
  }
  std::vector<py::ssize_t> extents(shape.begin(), shape.end());
  py::array host(py::dtype(nameOf(element)), extents);
  data_ = host.mutable_data();
  result_ = host;
}

py::object OutputArray::part(std::int64_t index) const {
  if (!device_) {
    return result_[py::int_(index)];
  }
  std::vector<std::int64_t> shape(device_->shape().begin() + 1, device_->shape().end());
  const std::size_t bytes = device_->bytes() / static_cast<std::size_t>(device_->shape()[0]);
  auto* data = static_cast<std::byte*>(device_->mutableData()) + index * bytes;
  return py::cast(std::make_shared<DeviceArray>(data, std::move(shape), device_->element(),
                                                device_->kind(), device_->device(), device_));
}

void bindDeviceArrays(py::module_& m) {
  using namespace pybind11::literals;
  py::class_<DeviceArray, std::shared_ptr<DeviceArray>>(
      m, "DeviceArray",
      "An array in a backend's memory, shared without a copy: __cuda_array_interface__ "
      "(version 3) and DLPack on the CUDA backend (cupy.asarray, torch.from_dlpack), the NumPy "
      "array interface and DLPack on the cpu backend (numpy.asarray). Either the script's own "
      "(cineflow.push, cineflow.create, an array call's result on device input: writable, freed "
      "with its last reference) or the engine's, lent during a callback (read-only).")
      .def_property_readonly(
          "shape", [](const DeviceArray& a) { return py::tuple(py::cast(a.checked().shape())); })
      .def_property_readonly(
          "dtype", [](const DeviceArray& a) { return py::dtype(nameOf(a.checked().element())); })
      .def_property_readonly("nbytes", [](const DeviceArray& a) { return a.checked().bytes(); })
      .def_property_readonly("backend",
                             [](const DeviceArray& a) { return kindName(a.checked().kind()); })
      .def_property_readonly("writable",
                             [](const DeviceArray& a) { return a.checked().writable(); })
      .def_property_readonly(
          "ptr", [](const DeviceArray& a) { return reinterpret_cast<std::uintptr_t>(a.data()); })
      .def_property_readonly("__cuda_array_interface__",
                             [](const DeviceArray& a) {
                               if (!a.onDevice()) {
                                 throw py::attribute_error(
                                     "host memory (the cpu backend): use the NumPy array "
                                     "interface or DLPack");
                               }
                               // Complete when handed out: no stream to wait on (v3: None).
                               py::dict interface = interfaceOf(a, 3);
                               interface["stream"] = py::none();
                               return interface;
                             })
      .def_property_readonly("__array_interface__",
                             [](const DeviceArray& a) {
                               if (a.onDevice()) {
                                 throw py::attribute_error(
                                     "device memory (the cuda backend): use "
                                     "__cuda_array_interface__ or DLPack, or cineflow.pull()");
                               }
                               return interfaceOf(a, 3);
                             })
      .def("__dlpack_device__",
           [](const DeviceArray& a) {
             a.checked();
             return py::make_tuple(static_cast<int>(a.onDevice() ? kDLCUDA : kDLCPU),
                                   a.onDevice() ? a.device() : 0);
           })
      .def(
          "__dlpack__",
          [](const py::object& self, const py::object& /*stream*/) {
            // Complete before it is lent: no stream to order with the consumer's.
            return dlpackOf(self.cast<std::shared_ptr<DeviceArray>>(), self);
          },
          "stream"_a = py::none())
      .def("__len__",
           [](const DeviceArray& a) {
             const auto& shape = a.checked().shape();
             return shape.empty() ? 0 : shape[0];
           })
      .def("__repr__", [](const DeviceArray& a) {
        return "DeviceArray(shape=" + textOf(a.shape()) + ", dtype=" + nameOf(a.element()) +
               ", backend=" + kindName(a.kind()) + (a.writable() ? "" : ", read-only") +
               (a.handedBack() ? ", handed back" : "") + ")";
      });
}

}  // namespace cineflow::python

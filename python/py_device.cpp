#include "py_device.hpp"

#include <dlpack.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <array>
#include <stdexcept>
#include <string>

#include "compute/buffer.hpp"
#include "py_common.hpp"
#include "py_modules.hpp"
#if CINEFLOW_HAVE_CUDA
#include "compute/cuda/cuda_backend.hpp"
#endif

namespace cineflow::python {
namespace py = pybind11;

namespace {

struct ElementInfo {
  Element element;
  const char* name;
  const char* typestr;  // the array interfaces' typestr
  DLDataType dlpack;
  std::size_t size;
};

constexpr std::array<ElementInfo, 4> kElements = {{
    {Element::Float32, "float32", "<f4", {kDLFloat, 32, 1}, 4},
    {Element::Int16, "int16", "<i2", {kDLInt, 16, 1}, 2},
    {Element::UInt16, "uint16", "<u2", {kDLUInt, 16, 1}, 2},
    {Element::Complex64, "complex64", "<c8", {kDLComplex, 64, 1}, 8},
}};

const ElementInfo& infoOf(Element element) {
  return kElements[static_cast<std::size_t>(element)];
}

std::string namesOf(std::initializer_list<Element> elements) {
  std::string names;
  for (const Element element : elements) {
    names += (names.empty() ? "" : " or ") + std::string(nameOf(element));
  }
  return names;
}

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

// A foreign GPU array's stream, waited for before Cineflow reads the array (CUDA array interface
// v3 and DLPack: 1 the legacy default stream, 2 the per-thread one, else a cudaStream_t).
void waitForStream([[maybe_unused]] compute::Backend& backend,
                   [[maybe_unused]] std::uintptr_t stream) {
#if CINEFLOW_HAVE_CUDA
  if (auto* cuda = dynamic_cast<compute::cuda::CudaBackend*>(&backend)) {
    py::gil_scoped_release released;
    cuda->synchronizeExternalStream(stream);
  }
#endif
}

bool isCudaDlpack(const py::handle& object) {
  if (!py::hasattr(object, "__dlpack_device__") || py::isinstance<py::array>(object)) {
    return false;
  }
  const py::tuple device = object.attr("__dlpack_device__")();
  const int type = device[0].cast<int>();
  return type == kDLCUDA || type == kDLCUDAManaged;
}

[[noreturn]] void refuseGpuOnCpu(const std::string& what) {
  throw py::type_error(what +
                       " is a GPU array, and this call runs on the host (the cpu backend): pass "
                       "backend=\"cuda\", or a NumPy array (cupy.asnumpy(" +
                       what + "))");
}

Element checkElement(Element element, const std::string& what,
                     std::initializer_list<Element> elements) {
  for (const Element allowed : elements) {
    if (allowed == element) {
      return element;
    }
  }
  throw py::type_error(what + " has dtype " + nameOf(element) + "; Cineflow takes " +
                       namesOf(elements));
}

std::vector<std::int64_t> shapeFrom(const py::handle& tuple) {
  std::vector<std::int64_t> shape;
  for (const py::handle extent : tuple) {
    shape.push_back(extent.cast<std::int64_t>());
  }
  return shape;
}

// C-order strides in bytes for `shape`.
std::vector<std::int64_t> cStrides(const std::vector<std::int64_t>& shape, std::size_t itemBytes) {
  std::vector<std::int64_t> strides(shape.size());
  std::int64_t stride = static_cast<std::int64_t>(itemBytes);
  for (std::size_t i = shape.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= shape[i];
  }
  return strides;
}

bool cContiguous(const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& strides,
                 std::size_t itemBytes) {
  const std::vector<std::int64_t> wanted = cStrides(shape, itemBytes);
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] > 1 && strides[i] != wanted[i]) {
      return false;
    }
  }
  return true;
}

[[noreturn]] void refuseLayout(const std::string& what, const std::string& shape) {
  throw py::value_error(what + " is not C-contiguous (a transposed or sliced view of shape " +
                        shape + "): pass a contiguous copy (numpy/cupy.ascontiguousarray(" + what +
                        "))");
}

std::string textOf(const std::vector<std::int64_t>& shape) {
  std::string text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    text += (i > 0 ? ", " : "") + std::to_string(shape[i]);
  }
  return text + (shape.size() == 1 ? ",)" : ")");
}

Element elementOfTypestr(const std::string& typestr, const std::string& what) {
  for (const ElementInfo& info : kElements) {
    if (typestr == info.typestr) {
      return info.element;
    }
  }
  throw py::type_error(what + " has typestr " + typestr +
                       "; Cineflow takes float32, int16, uint16 or complex64");
}

Element elementOfDlpack(const DLDataType& type, const std::string& what) {
  for (const ElementInfo& info : kElements) {
    if (type.code == info.dlpack.code && type.bits == info.dlpack.bits && type.lanes == 1) {
      return info.element;
    }
  }
  throw py::type_error(what + " has a DLPack dtype (code " + std::to_string(type.code) + ", " +
                       std::to_string(type.bits) +
                       " bits) Cineflow does not take: float32, int16, uint16 or complex64");
}

// A __cuda_array_interface__ pointer must lie in the memory of the device Cineflow runs on (the
// interface, unlike DLPack, does not say which): asked of CUDA itself.
void requireBackendDevice([[maybe_unused]] const void* data, const std::string& what,
                          [[maybe_unused]] const compute::Backend& backend) {
#if CINEFLOW_HAVE_CUDA
  const auto* cuda = dynamic_cast<const compute::cuda::CudaBackend*>(&backend);
  if (cuda == nullptr || data == nullptr) {
    return;
  }
  using Kind = compute::cuda::CudaBackend::PointerPlace::Kind;
  const auto place = cuda->placeOfPointer(data);
  if (place.kind == Kind::Unknown) {
    throw py::value_error(what +
                          "'s __cuda_array_interface__ pointer is not memory CUDA knows "
                          "(neither device nor page-locked host memory)");
  }
  if (place.kind == Kind::Device && place.device != cuda->device()) {
    throw py::value_error(what + " is on CUDA device " + std::to_string(place.device) +
                          "; Cineflow runs on device " + std::to_string(cuda->device()) +
                          " (CINEFLOW_CUDA_DEVICE)");
  }
#else
  (void)what;
#endif
}

InputArray fromCudaArrayInterface(const py::handle& object, const std::string& what,
                                  compute::Backend& backend) {
  const py::dict interface = object.attr("__cuda_array_interface__");
  InputArray input;
  input.shape = shapeFrom(interface["shape"]);
  input.element = elementOfTypestr(interface["typestr"].cast<std::string>(), what);
  input.data =
      reinterpret_cast<const void*>(interface["data"].cast<py::tuple>()[0].cast<std::uintptr_t>());
  if (interface.contains("mask") && !interface["mask"].is_none()) {
    throw py::value_error(what + " is a masked array: Cineflow takes plain arrays");
  }
  if (interface.contains("strides") && !interface["strides"].is_none() &&
      !cContiguous(input.shape, shapeFrom(interface["strides"]), sizeOf(input.element))) {
    refuseLayout(what, textOf(input.shape));
  }
  requireBackendDevice(input.data, what, backend);
  if (interface.contains("stream") && !interface["stream"].is_none()) {
    waitForStream(backend, interface["stream"].cast<std::uintptr_t>());
  }
  input.inBackendMemory = true;
  input.keepAlive = py::reinterpret_borrow<py::object>(object);
  return input;
}

InputArray fromCudaDlpack(const py::handle& object, const std::string& what,
                          compute::Backend& backend) {
  const py::tuple device = object.attr("__dlpack_device__")();
  if (device[1].cast<int>() != deviceOf(backend)) {
    throw py::value_error(what + " is on CUDA device " + std::to_string(device[1].cast<int>()) +
                          "; Cineflow runs on device " + std::to_string(deviceOf(backend)) +
                          " (CINEFLOW_CUDA_DEVICE)");
  }
  // Made ready for the legacy default stream, which Cineflow then waits for.
  py::object capsule = object.attr("__dlpack__")(py::arg("stream") = 1);
  if (PyCapsule_IsValid(capsule.ptr(), "dltensor") == 0) {
    throw py::type_error(what + ".__dlpack__() did not return a DLPack capsule");
  }
  auto* managed = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule.ptr(), "dltensor"));
  PyCapsule_SetName(capsule.ptr(), "used_dltensor");
  InputArray input;
  // From here the tensor is Cineflow's to release: when the input is done with.
  input.keepAlive = py::capsule(managed, [](void* pointer) {
    auto* tensor = static_cast<DLManagedTensor*>(pointer);
    if (tensor->deleter != nullptr) {
      tensor->deleter(tensor);
    }
  });
  const DLTensor& t = managed->dl_tensor;
  input.shape.assign(t.shape, t.shape + t.ndim);
  input.element = elementOfDlpack(t.dtype, what);
  if (t.strides != nullptr) {
    std::vector<std::int64_t> strides(t.strides, t.strides + t.ndim);
    for (std::int64_t& stride : strides) {
      stride *= static_cast<std::int64_t>(sizeOf(input.element));  // DLPack counts elements
    }
    if (!cContiguous(input.shape, strides, sizeOf(input.element))) {
      refuseLayout(what, textOf(input.shape));
    }
  }
  input.data = static_cast<const std::byte*>(t.data) + t.byte_offset;
  waitForStream(backend, 1);
  input.inBackendMemory = true;
  return input;
}

InputArray fromNumpy(const py::handle& object, const std::string& what,
                     std::initializer_list<Element> elements) {
  if (!py::isinstance<py::array>(object)) {
    throw py::type_error(what + " must be a NumPy array or a cineflow.DeviceArray of " +
                         namesOf(elements) + ", not " +
                         std::string(py::str(py::type::of(object).attr("__name__"))));
  }
  const auto array = py::reinterpret_borrow<py::array>(object);
  InputArray input;
  input.shape.assign(array.shape(), array.shape() + array.ndim());
  bool known = false;
  for (const Element element : elements) {
    if (array.dtype().equal(py::dtype(nameOf(element)))) {
      input.element = element;
      known = true;
    }
  }
  if (!known) {
    // The suggestion keeps floats floats: float64 -> the float dtype taken, if one is.
    const char* suggested = nameOf(*elements.begin());
    for (const Element element : elements) {
      if (array.dtype().kind() == 'f' && element == Element::Float32) {
        suggested = nameOf(element);
      }
    }
    throw py::type_error(what + " has dtype " + std::string(py::str(array.dtype())) +
                         "; Cineflow takes " + namesOf(elements) + " (" + what + ".astype(numpy." +
                         suggested + ") converts it)");
  }
  if ((array.flags() & py::array::c_style) == 0) {
    refuseLayout(what, textOf(input.shape));
  }
  input.data = array.data();
  input.keepAlive = array;
  return input;
}

}  // namespace

std::size_t sizeOf(Element element) {
  return infoOf(element).size;
}
const char* nameOf(Element element) {
  return infoOf(element).name;
}

Element elementNamed(const std::string& name, const std::string& what) {
  for (const ElementInfo& info : kElements) {
    if (name == info.name) {
      return info.element;
    }
  }
  throw py::type_error(what + " '" + name +
                       "' is not one Cineflow keeps: float32, int16, uint16 or complex64");
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

std::size_t InputArray::count() const {
  std::size_t count = 1;
  for (const std::int64_t extent : shape) {
    count *= static_cast<std::size_t>(extent);
  }
  return count;
}

std::string InputArray::shapeText() const {
  return textOf(shape);
}

InputArray inputArray(const py::handle& object, const std::string& what,
                      std::initializer_list<Element> elements, compute::Backend& backend) {
  const bool cpu = backend.kind() == compute::BackendKind::Cpu;
  InputArray input;
  if (py::isinstance<DeviceArray>(object)) {
    const auto array = object.cast<std::shared_ptr<DeviceArray>>();
    if (array->kind() != backend.kind()) {
      throw py::type_error(what + " is a DeviceArray on the " + kindName(array->kind()) +
                           " backend, and this call runs on the " + kindName(backend.kind()) +
                           " backend: pass backend=\"" + kindName(array->kind()) +
                           "\", or move it with cineflow.push(cineflow.pull(" + what + "))");
    }
    input.data = array->data();
    input.shape = array->shape();
    input.element = array->element();
    input.inBackendMemory = true;
    input.keepAlive = py::reinterpret_borrow<py::object>(object);
  } else if (py::hasattr(object, "__cuda_array_interface__")) {
    if (cpu) {
      refuseGpuOnCpu(what);
    }
    input = fromCudaArrayInterface(object, what, backend);
  } else if (isCudaDlpack(object)) {
    if (cpu) {
      refuseGpuOnCpu(what);
    }
    input = fromCudaDlpack(object, what, backend);
  } else {
    return fromNumpy(object, what, elements);
  }
  checkElement(input.element, what, elements);
  return input;
}

compute::DeviceSpan<const std::byte> staged(const InputArray& input, std::size_t offset,
                                            std::size_t bytes, compute::Backend& backend,
                                            compute::Stream& stream,
                                            compute::DeviceBuffer<std::byte>& copy) {
  const auto* source = static_cast<const std::byte*>(input.data) + offset;
  if (input.inBackendMemory) {
    return {source, bytes};
  }
  if (copy.bytes() < bytes) {
    copy = compute::DeviceBuffer<std::byte>(backend, bytes);
  }
  stream.copyAsync(copy.data(), source, bytes);
  return {copy.data(), bytes};
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

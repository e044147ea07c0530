// Arrays handed in to the module's array calls (py_device.hpp, inputArray): NumPy arrays, the
// module's own DeviceArrays, and GPU arrays of other libraries through the CUDA array interface
// (v3, with its stream) or DLPack, each checked for its type, layout and device before it is read
// in place.

#include <dlpack.h>
#include <pybind11/numpy.h>

#include <stdexcept>
#include <string>

#include "compute/buffer.hpp"
#include "py_device.hpp"
#include "py_elements.hpp"
#if CINEFLOW_HAVE_CUDA
#include "compute/cuda/cuda_backend.hpp"
#endif

namespace cineflow::python {
namespace py = pybind11;

namespace {

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

Element elementOfTypestr(const std::string& typestr, const std::string& what) {
  if (const ElementInfo* info =
          findElement([&](const ElementInfo& e) { return typestr == e.typestr; })) {
    return info->element;
  }
  throw py::type_error(what + " has typestr " + typestr + "; Cineflow takes " + allNames());
}

Element elementOfDlpack(const DLDataType& type, const std::string& what) {
  if (const ElementInfo* info = findElement([&](const ElementInfo& e) {
        return type.code == e.dlpack.code && type.bits == e.dlpack.bits && type.lanes == 1;
      })) {
    return info->element;
  }
  throw py::type_error(what + " has a DLPack dtype (code " + std::to_string(type.code) + ", " +
                       std::to_string(type.bits) + " bits) Cineflow does not take: " + allNames());
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

bool isGpuArray(const py::handle& object) {
  return !py::isinstance<DeviceArray>(object) &&
         (py::hasattr(object, "__cuda_array_interface__") || isCudaDlpack(object));
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

}  // namespace cineflow::python

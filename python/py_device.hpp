#pragma once
// cineflow.DeviceArray: an array in a backend's memory (the GPU's on CUDA, the host's on the CPU
// backend), shared with Python without a copy: on the CUDA backend through
// __cuda_array_interface__ (version 3) and DLPack (__dlpack__, __dlpack_device__: kDLCUDA), on the
// CPU backend through the NumPy array interface and DLPack (kDLCPU).
//
// Two kinds of memory stand behind one: memory the script owns (cineflow.push, cineflow.create,
// the results of an array call on device input: DeviceArray::allocate, freed when the last
// reference goes), and memory the engine lends (a volume's views during a callback: read-only,
// `valid` says whether the lender still lends, and a view whose lender took the memory back
// raises on every access but repr). For owned memory `owner` keeps it valid and every export
// holds a reference to the array, so the memory outlives whatever a consumer (CuPy, PyTorch,
// NumPy) made of it. Lent memory is zero-copy by design: what a consumer made of it in the call
// shares it and is valid in the call only (the lender reuses it after).
//
// InputArray: what an array call (beamform, bmode, doppler, oct_bscan) takes: NumPy (host), a
// DeviceArray, or on the CUDA backend any GPU array with __cuda_array_interface__ or CUDA DLPack,
// checked for dtype, C order and the backend it is on.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "compute/backend.hpp"
#include "compute/buffer.hpp"

namespace cineflow::python {

enum class Element { Float32, Int16, UInt16, Complex64 };
std::size_t sizeOf(Element element);
const char* nameOf(Element element);  // NumPy's name: "float32", "int16", "uint16", "complex64"
// "float32" ... and back; TypeError naming `what` and the accepted names for another.
Element elementNamed(const std::string& name, const std::string& what);

// The CUDA device `backend` runs on (CINEFLOW_CUDA_DEVICE), for DLPack; 0 on the CPU.
int deviceOf(const compute::Backend& backend);
// "cuda" | "cpu".
const char* kindName(compute::BackendKind kind);

class DeviceArray {
 public:
  // Memory lent by `owner` (read-only; `valid` false once the lender took it back).
  DeviceArray(const void* data, std::vector<std::int64_t> shape, Element element,
              compute::BackendKind kind, int device, std::shared_ptr<const void> owner,
              std::function<bool()> valid = {});
  // New memory on `backend` the array owns, zeroed; MemoryError (std::bad_alloc) or RuntimeError
  // with the backend's message when it cannot be had (the device memory budget, the GPU's).
  static std::shared_ptr<DeviceArray> allocate(compute::Backend& backend,
                                               std::vector<std::int64_t> shape, Element element);

  // Raises RuntimeError when the lender took the memory back: every Python access but repr
  // passes through here (or data()) first.
  const DeviceArray& checked() const;
  bool handedBack() const { return valid_ && !valid_(); }
  const void* data() const;  // raises as checked()
  void* mutableData();       // raises also when the array is read-only
  const std::vector<std::int64_t>& shape() const { return shape_; }
  Element element() const { return element_; }
  compute::BackendKind kind() const { return kind_; }
  bool onDevice() const { return kind_ == compute::BackendKind::Cuda; }
  bool writable() const { return backend_ != nullptr; }
  int device() const { return device_; }
  std::size_t count() const;
  std::size_t bytes() const { return count() * sizeOf(element_); }
  // The backend that owns the memory (allocate()), null for lent memory.
  compute::Backend* backend() const { return backend_; }

  // Bytes of memory the script holds in arrays it owns, per backend kind (the memory readout).
  static std::size_t heldBytes(compute::BackendKind kind);

 private:
  const void* data_;
  std::vector<std::int64_t> shape_;
  Element element_;
  compute::BackendKind kind_;
  int device_;
  std::shared_ptr<const void> owner_;
  std::function<bool()> valid_;
  compute::Backend* backend_ = nullptr;
};

// A NumPy copy of `array` (from the GPU on CUDA) that owns its memory.
pybind11::array copyToHost(const DeviceArray& array);
// Lent memory handed to a script: a read-only NumPy copy when it is the host's (the script keeps
// it whatever the lender does later); otherwise the DeviceArray itself, lent zero-copy (the
// Python class, bound by bindDeviceArrays: py_modules.hpp).
pybind11::object hostCopyOrView(const std::shared_ptr<DeviceArray>& array);
// Clears `array`'s writeable flag (an image or volume of the engine's, read-only to the script).
void makeReadOnly(pybind11::array& array);

// Whether `object` is another library's GPU array (__cuda_array_interface__, or DLPack on a CUDA
// device); a cineflow.DeviceArray is not.
bool isGpuArray(const pybind11::handle& object);

// An array call's input, on `backend`.
struct InputArray {
  const void* data = nullptr;
  std::vector<std::int64_t> shape;
  Element element = Element::Float32;
  // In the backend's own memory (a DeviceArray of this backend, a GPU array on CUDA): the call
  // reads it in place and returns a DeviceArray; otherwise host memory copied in, NumPy out.
  bool inBackendMemory = false;
  pybind11::object keepAlive;  // the object (or DLPack capsule) behind `data`

  std::size_t count() const;
  std::size_t bytes() const { return count() * sizeOf(element); }
  std::string shapeText() const;  // "(3, 128, 2240)"
};
// `object` as an input of one of `elements`, or a clear error naming `what`: TypeError for a
// non-array, another dtype, a GPU array on the cpu backend or a DeviceArray of another backend;
// ValueError for a non-contiguous array. A GPU array handed over with a stream (CUDA array
// interface v3, DLPack) is waited for before it is read. Never copies.
InputArray inputArray(const pybind11::handle& object, const std::string& what,
                      std::initializer_list<Element> elements, compute::Backend& backend);

// `bytes` of the input from `offset` where the backend's stages read them: in place when the input
// is in the backend's memory, else copied into `copy` (made on first use) on `stream`.
compute::DeviceSpan<const std::byte> staged(const InputArray& input, std::size_t offset,
                                            std::size_t bytes, compute::Backend& backend,
                                            compute::Stream& stream,
                                            compute::DeviceBuffer<std::byte>& copy);

// Where an array call writes a result of `shape`: host memory for NumPy input (the NumPy array it
// returns), a new DeviceArray on `backend` for device input.
class OutputArray {
 public:
  OutputArray(const InputArray& input, compute::Backend& backend, std::vector<std::int64_t> shape,
              Element element = Element::Float32);
  void* data() { return data_; }
  pybind11::object result() const { return result_; }  // the NumPy array or the DeviceArray
  // Item `index` of the result's first axis, sharing its memory (the same kind).
  pybind11::object part(std::int64_t index) const;

 private:
  void* data_ = nullptr;
  pybind11::object result_;
  std::shared_ptr<DeviceArray> device_;
};

}  // namespace cineflow::python

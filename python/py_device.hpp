#pragma once
// A float32 array in a backend's memory, lent to Python without a copy: on the CUDA backend
// through __cuda_array_interface__ (version 3) and DLPack (__dlpack__, __dlpack_device__: kDLCUDA),
// on the CPU backend through the NumPy array interface and DLPack (kDLCPU). `owner` keeps the
// memory valid (an engine's volume Access, a device array); every export holds a reference to
// this view, so the memory outlives whatever a consumer (CuPy, PyTorch, NumPy) made of it.
// `valid` says whether the lender still lends: a view whose lender took the memory back raises.

#include <pybind11/pybind11.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "compute/backend.hpp"

namespace cineflow::python {

class DeviceView {
 public:
  DeviceView(const float* data, std::vector<std::int64_t> shape, compute::BackendKind kind,
             int device, std::shared_ptr<const void> owner, std::function<bool()> valid = {});

  const float* data() const;  // raises RuntimeError when the lender took the memory back
  const std::vector<std::int64_t>& shape() const { return shape_; }
  bool onDevice() const { return kind_ == compute::BackendKind::Cuda; }
  int device() const { return device_; }
  std::size_t count() const;

 private:
  const float* data_;
  std::vector<std::int64_t> shape_;
  compute::BackendKind kind_;
  int device_;
  std::shared_ptr<const void> owner_;
  std::function<bool()> valid_;
};

// `view` as a read-only NumPy array sharing its memory when that is the host's; otherwise the
// DeviceView itself (the Python class, bound by bindDeviceView: py_modules.hpp).
pybind11::object hostArrayOrView(const std::shared_ptr<DeviceView>& view);

}  // namespace cineflow::python

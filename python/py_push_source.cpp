#include "py_push_source.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <chrono>
#include <string>

#include "oct/oct_push_source.hpp"
#include "oct/raw_spectra_import.hpp"
#include "py_common.hpp"
#include "py_device.hpp"
#include "ultrasound/push_source.hpp"

namespace cineflow::python {
namespace py = pybind11;
using namespace pybind11::literals;

namespace {

std::string dtypeName(const PushSourceHandle& handle) {
  if (handle.oct) {
    return "uint16";
  }
  return handle.sampleType == acquire::SampleType::Float32 ? "float32" : "int16";
}

std::vector<py::ssize_t> shapeOf(const PushSourceHandle& handle) {
  if (handle.oct) {
    return {handle.oct->ascans, handle.oct->samples};
  }
  return {handle.ultrasound->transmits(), handle.ultrasound->elements(),
          handle.ultrasound->samples};
}

std::string shapeText(const std::vector<py::ssize_t>& shape) {
  std::string text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    text += (i > 0 ? ", " : "") + std::to_string(shape[i]);
  }
  return text + ")";
}

PushSourceHandle describedHandle(const py::object& description, const std::string& dtype) {
  PushSourceHandle handle;
  if (py::isinstance<acquire::AcquisitionParams>(description)) {
    handle.ultrasound = description.cast<acquire::AcquisitionParams>();
    if (dtype == "int16") {
      handle.sampleType = acquire::SampleType::Int16;
    } else if (dtype == "float32") {
      handle.sampleType = acquire::SampleType::Float32;
    } else {
      throw py::value_error("dtype=\"" + dtype +
                            "\": channel data are pushed as \"int16\" or \"float32\"");
    }
    handle.channel = std::make_shared<acquire::PushChannel>(handle.ultrasound->samplesPerFrame() *
                                                            sampleBytes(handle.sampleType));
    return handle;
  }
  if (py::isinstance<py::dict>(description) || py::isinstance<py::str>(description)) {
    if (dtype != "int16" && dtype != "uint16") {
      throw py::value_error("dtype=\"" + dtype + "\": OCT spectra are pushed as uint16");
    }
    const std::string json =
        py::isinstance<py::str>(description)
            ? description.cast<std::string>()
            : py::module_::import("json").attr("dumps")(description).cast<std::string>();
    try {
      const oct::RawSpectraDescription parsed =
          oct::parseRawSpectraDescription(json, "the OCT description", ".");
      handle.oct = parsed.acquisition;
      handle.dispersion = parsed.dispersion;
    } catch (const oct::RawSpectraError& e) {
      throw py::value_error(e.what());
    }
    handle.channel = std::make_shared<acquire::PushChannel>(handle.oct->samplesPerFrame() *
                                                            sizeof(std::uint16_t));
    return handle;
  }
  throw py::type_error(
      "PushSource describes its frames with a cineflow.Acquisition (plane-wave channel data) or "
      "an OCT description (a dict with the keys of cineflow convert --describe), not " +
      py::repr(description).cast<std::string>());
}

// A new push source, offered to this process's openers as "push://N" (its `spec`) for as long as
// the script keeps it (or an Engine it was handed to does).
PushSourceHandle makeHandle(const py::object& description, const std::string& dtype) {
  PushSourceHandle handle = describedHandle(description, dtype);
  const std::string label = std::string("a script's PushSource: ") +
                            (handle.oct ? "OCT B-scans " : "ultrasound frames ") +
                            dtypeName(handle) + " " + shapeText(shapeOf(handle));
  handle.offer = std::make_shared<acquire::SourceOffer>(
      label, [reader = handle] { return reader.open(); });  // `reader` holds no offer: no cycle
  return handle;
}

// The backend whose memory a frame in device memory is in: a DeviceArray's own, CUDA for another
// library's GPU array (TypeError when this process has no CUDA device to read it with).
compute::Backend& backendOfDeviceFrame(const py::handle& frame) {
  if (py::isinstance<DeviceArray>(frame)) {
    return backendFor(kindName(frame.cast<const DeviceArray&>().kind()));
  }
  try {
    return backendFor("cuda");
  } catch (const std::exception& e) {
    throw py::type_error(std::string("push(): the frame is a GPU array, and this process cannot "
                                     "read it (") +
                         e.what() + "): push a NumPy array (cupy.asnumpy(frame))");
  }
}

bool push(const PushSourceHandle& handle, const py::object& frame, std::optional<double> timeout,
          std::optional<int> sliceIndex) {
  const std::string dtype = dtypeName(handle);
  const std::vector<py::ssize_t> shape = shapeOf(handle);
  acquire::SliceInfo slice;
  slice.sliceIndex = sliceIndex.value_or(0);
  std::optional<std::chrono::nanoseconds> wait;
  if (timeout) {
    if (!(*timeout >= 0)) {
      throw py::value_error("push(): timeout must be >= 0 seconds (None: as long as it takes)");
    }
    wait = std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::duration<double>(*timeout));
  }
  // One copy either way: a host array's bytes copied into the slot, a device array's copied from
  // the device into it (the engine's host slots are pinned on CUDA).
  const void* data = nullptr;
  std::size_t bytes = 0;
  compute::Backend* device = nullptr;
  py::object keep = frame;
  if (py::isinstance<DeviceArray>(frame) || isGpuArray(frame)) {
    device = &backendOfDeviceFrame(frame);
    const InputArray input =
        inputArray(frame, "push()'s frame", {elementNamed(dtype, "push()")}, *device);
    const std::vector<py::ssize_t> got(input.shape.begin(), input.shape.end());
    if (got != shape) {
      throw py::value_error("push(): a frame of shape " + shapeText(got) +
                            "; this source's frames are " + dtype + " " + shapeText(shape));
    }
    data = input.data;
    bytes = input.bytes();
    keep = input.keepAlive;
  } else {
    const py::array array = py::array::ensure(frame);
    if (!array) {
      throw py::type_error(
          "push(): a frame is an array (NumPy, a cineflow.DeviceArray, or a GPU "
          "array on CUDA), not " +
          py::str(py::type::of(frame)).cast<std::string>());
    }
    if (!array.dtype().is(py::dtype(dtype))) {
      throw py::value_error("push(): a frame of " + py::str(array.dtype()).cast<std::string>() +
                            "; this source's frames are " + dtype + " " + shapeText(shape));
    }
    const std::vector<py::ssize_t> got(array.shape(), array.shape() + array.ndim());
    if (got != shape) {
      throw py::value_error("push(): a frame of shape " + shapeText(got) +
                            "; this source's frames are " + dtype + " " + shapeText(shape));
    }
    if (!(array.flags() & py::array::c_style)) {
      throw py::value_error(
          "push(): the frame is not C-contiguous; pass numpy.ascontiguousarray(frame) (the one "
          "copy into the engine reads it in order)");
    }
    data = array.data();
    bytes = static_cast<std::size_t>(array.nbytes());
    keep = array;
  }
  acquire::PushChannel::Pushed result;
  {
    py::gil_scoped_release released;  // `keep` holds the frame's memory
    if (device != nullptr) {
      result = handle.channel->push(
          bytes,
          [device, data](std::span<std::byte> slot) {
            device->copyBlocking(slot.data(), data, slot.size());
          },
          slice, wait);
    } else {
      result = handle.channel->push(
          std::span<const std::byte>(static_cast<const std::byte*>(data), bytes), slice, wait);
    }
  }
  switch (result) {
    case acquire::PushChannel::Pushed::Taken:
      return true;
    case acquire::PushChannel::Pushed::Dropped:
      return false;
    case acquire::PushChannel::Pushed::TimedOut:
      PyErr_SetString(PyExc_TimeoutError,
                      "push(): the engine did not ask for a frame within the timeout");
      throw py::error_already_set();
    case acquire::PushChannel::Pushed::Closed:
      throw std::runtime_error("push(): the source was closed (close() ran)");
    case acquire::PushChannel::Pushed::NotRunning:
      break;
  }
  throw std::runtime_error(
      "push(): no engine is running on this source (start() it first; a stopped or failed engine "
      "takes no frames)");
}

}  // namespace

std::unique_ptr<acquire::FrameSource> PushSourceHandle::open() const {
  if (oct) {
    return std::make_unique<oct::OctPushSource>(*oct, dispersion, channel);
  }
  return std::make_unique<ultrasound::PushSource>(*ultrasound, sampleType, channel);
}

const PushSourceHandle* pushSourceOf(const py::handle& source) {
  return py::isinstance<PushSourceHandle>(source) ? &source.cast<const PushSourceHandle&>()
                                                  : nullptr;
}

void bindPushSource(py::module_& m) {
  py::class_<PushSourceHandle>(
      m, "PushSource",
      "Frames a script pushes from its own acquisition loop (a scanner or camera SDK's callback) "
      "into an Engine: cineflow.Engine(PushSource(...)). Each push() is copied once, straight "
      "into the engine's host ring.")
      .def(py::init(&makeHandle), "description"_a, py::kw_only(), "dtype"_a = "int16",
           "description: a cineflow.Acquisition (plane-wave channel data, frames "
           "[transmits][elements][samples] of dtype \"int16\" or \"float32\") or an OCT "
           "description (a dict, or its JSON text, with the keys of cineflow convert --describe: "
           "frames [ascans][samples] uint16). Raises ValueError naming the first bad field.")
      .def_property_readonly(
          "shape", [](const PushSourceHandle& h) { return py::tuple(py::cast(shapeOf(h))); },
          "The shape every pushed frame has.")
      .def_property_readonly(
          "dtype", [](const PushSourceHandle& h) { return py::dtype(dtypeName(h)); },
          "The dtype every pushed frame has.")
      .def_property_readonly(
          "spec", [](const PushSourceHandle& h) { return h.offer->spec(); },
          "The name this source is offered under in this process (\"push://1\"): what "
          "cineflow.gui() and cineflow.Engine() open, as long as the script keeps the source.")
      .def_property_readonly(
          "pushed", [](const PushSourceHandle& h) { return h.channel->pushed(); },
          "Frames handed to an engine so far (taken or dropped).")
      .def_property_readonly(
          "dropped", [](const PushSourceHandle& h) { return h.channel->dropped(); },
          "Of them, let go because the engine (policy \"drop\") had no free slot.")
      .def_property_readonly(
          "closed", [](const PushSourceHandle& h) { return h.channel->closed(); },
          "Whether close() ran (a new start() of the engine opens it again).")
      .def("push", &push, "frame"_a, py::kw_only(), "timeout"_a = py::none(),
           "slice_index"_a = py::none(),
           "Hands one frame (a C-contiguous array of shape and dtype as above) to the running "
           "engine, waiting until it takes one: returns True when it went into a host slot, False "
           "when the engine (policy \"drop\") had none free and let it go. timeout: seconds to "
           "wait at most (None: as long as it takes), then TimeoutError. slice_index: its place "
           "in a volume (OCT; None: counted). Raises ValueError for a frame of another shape or "
           "dtype, RuntimeError when no engine runs on the source or close() ran.")
      .def(
          "close", [](const PushSourceHandle& h) { h.channel->close(); },
          "No more frames: the engine finishes with those it has (Engine.wait() returns).")
      .def("__repr__", [](const PushSourceHandle& h) {
        return "PushSource(" + dtypeName(h) + " " + shapeText(shapeOf(h)) + ")";
      });
}

}  // namespace cineflow::python

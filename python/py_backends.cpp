// cineflow.backend_info: which backend a name gives and its memory readout.
#include <pybind11/stl.h>

#include "py_common.hpp"
#include "py_modules.hpp"

namespace cineflow::python {

void bindBackends(py::module_& m) {
  using namespace pybind11::literals;
  m.def(
      "backend_info",
      [](const std::string& name) {
        compute::Backend& backend = backendFor(name);
        const compute::DeviceMemoryInfo memory = backend.memoryInfo();
        py::dict info;
        info["kind"] = backend.kind() == compute::BackendKind::Cuda ? "cuda" : "cpu";
        info["device"] = backend.deviceName();
        info["memory_free_bytes"] = memory.freeBytes;
        info["memory_total_bytes"] = memory.totalBytes;
        info["fallback"] = name == "auto" ? autoFallbackReason() : std::string();
        return info;
      },
      "backend"_a = "auto",
      "The backend a name gives (\"auto\", \"cpu\", \"cuda\"): kind, device, its memory (free "
      "and total bytes; the host's on the cpu backend) and, for \"auto\", why it fell back to "
      "the CPU.");
}

}  // namespace cineflow::python

#include "py_volumes.hpp"

#include <pybind11/stl.h>

#include <array>
#include <stdexcept>
#include <utility>
#include <vector>

#include "pipeline/engine.hpp"
#include "py_device.hpp"
#include "py_modules.hpp"
#include "store/compression.hpp"

namespace cineflow::python {
namespace py = pybind11;
namespace {

using namespace pybind11::literals;

// One stored volume lent to Python (during a callback, or inside a `with` block on
// Store.volume(id)): its DeviceArray views are valid while it is lent and raise after; its NumPy
// arrays (the CPU backend) are copies the script keeps.
class Volume {
 public:
  Volume(std::shared_ptr<Store> store, store::VolumeStore::Access access)
      : store_(std::move(store)),
        access_(std::move(access)),
        lent_(std::make_shared<std::atomic<bool>>(true)) {}

  std::uint64_t id() const { return access().id(); }
  const process::VolumeInfo& info() const { return access().info(); }
  bool kept() const { return kept_; }
  void keep() {
    access();
    kept_ = true;
  }
  void release() {  // GIL held
    lent_->store(false);
    access_ = store::VolumeStore::Access();
    arrays_ = {};
  }

  // One of the stored arrays: 0 the volume [ny][nz][nx], 1-3 the MIPs along y, z, x; a NumPy
  // copy on the host (made once per lending: the store reuses the memory once the volume is
  // handed back), the shared DeviceArray on a device. GIL held.
  py::object array(int which) const {
    py::object& array = arrays_.at(static_cast<std::size_t>(which));
    if (!array) {
      array = hostCopyOrView(view(which));  // view() raises once the volume is handed back
    }
    return array;
  }

  // The same as the zero-copy exporter itself, on either backend.
  std::shared_ptr<DeviceArray> view(int which) const {
    const process::VolumeView view = access().view();
    const process::VolumeShape& s = access().info().shape;
    const float* data = nullptr;
    std::vector<std::int64_t> shape;
    switch (which) {
      case 0:
        data = view.volume.data();
        shape = {s.ny, s.nz, s.nx};
        break;
      case 1:
        data = view.alongY.data();
        shape = {s.nz, s.nx};
        break;
      case 2:
        data = view.alongZ.data();
        shape = {s.ny, s.nx};
        break;
      default:
        data = view.alongX.data();
        shape = {s.ny, s.nz};
        break;
    }
    compute::Backend& backend = store_->backend();
    auto lent = lent_;
    return std::make_shared<DeviceArray>(data, std::move(shape), Element::Float32, backend.kind(),
                                         deviceOf(backend), store_,
                                         [lent] { return lent->load(); });
  }

 private:
  const store::VolumeStore::Access& access() const {
    if (!access_) {
      throw std::runtime_error(
          "this volume went back to Cineflow when the callback returned (or its `with` block "
          "ended): keep() it in the callback to review it later, or copy what you keep");
    }
    return access_;
  }

  std::shared_ptr<Store> store_;  // the memory outlives every view of it
  store::VolumeStore::Access access_;
  std::shared_ptr<std::atomic<bool>> lent_;
  mutable std::array<py::object, 4> arrays_;  // what array() handed out while lent
  bool kept_ = false;
};

}  // namespace

Store::Store(compute::Backend& backend, std::size_t bytes,
             std::function<store::FileMetadata()> metadata)
    : backend_(backend), metadata_(std::move(metadata)), store_(backend), saver_(backend, store_) {
  if (const std::string why =
          store_.setCapacity(bytes > 0 ? bytes : store::VolumeStore::suggestedCapacity(backend));
      !why.empty()) {
    throw std::runtime_error("the volume store: " + why);
  }
}

Store::~Store() = default;

void Store::save(std::uint64_t id, const std::string& path, const std::string& compression) {
  store::SaveRequest request;
  request.id = id;
  request.path = path;
  request.metadata = metadata_();
  request.compression = store::parseCompression(compression);
  request.mayReplace = true;  // the script named the path
  std::scoped_lock lock(saving_);
  saver_.save(std::move(request));
  saver_.waitIdle();
  for (const store::SaveOutcome& outcome : saver_.takeOutcomes()) {
    if (outcome.id == id && !outcome.ok) {
      throw std::runtime_error(outcome.message);
    }
  }
}

void Store::discard(std::uint64_t id) {
  if (const std::string why = store_.discard(id); !why.empty()) {
    throw std::runtime_error(why);
  }
}

std::uint64_t Store::keepLatest(const pipeline::Engine& engine) {
  std::string why;
  const std::optional<std::uint64_t> id = store_.bufferLatest(engine.lockLatestVolume(), why);
  if (!id) {
    throw std::runtime_error(why);
  }
  return *id;
}

VolumeFeed::VolumeFeed(std::shared_ptr<Store> store, py::object callable, int queue)
    : store_(std::move(store)),
      callback_(std::move(callable)),
      queueLimit_(static_cast<std::size_t>(queue)),
      thread_([this] { run(); }) {}

VolumeFeed::~VolumeFeed() {
  {
    std::scoped_lock lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
  for (const std::uint64_t id : queue_) {
    store_->volumes().discard(id);
  }
}

void VolumeFeed::onVolume(const process::VolumeEndpoint& endpoint) {
  std::string why;
  {
    std::scoped_lock lock(mutex_);
    if (queue_.size() >= queueLimit_) {
      why = std::to_string(queueLimit_) + " volumes already wait for the callback";
    }
  }
  std::optional<std::uint64_t> id;
  if (why.empty()) {
    id =
        store_->volumes().buffer(endpoint.info, endpoint.view, endpoint.done, endpoint.stream, why);
  }
  std::scoped_lock lock(mutex_);
  if (!id) {
    dropped_.fetch_add(1);
    lastDrop_ = "volume " + std::to_string(endpoint.info.number) + ": " + why;
    return;
  }
  queue_.push_back(*id);
  changed_.notify_all();
}

void VolumeFeed::drain() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return queue_.empty() && !busy_; });
}

std::string VolumeFeed::lastDrop() const {
  std::scoped_lock lock(mutex_);
  return lastDrop_;
}

void VolumeFeed::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (stopping_) {
      return;
    }
    const std::uint64_t id = queue_.front();
    queue_.pop_front();
    busy_ = true;
    lock.unlock();
    deliver(id);
    lock.lock();
    busy_ = false;
    changed_.notify_all();
  }
}

void VolumeFeed::deliver(std::uint64_t id) {
  store::VolumeStore::Access access = store_->volumes().access(id);
  if (!access) {
    return;
  }
  access.ready().synchronize();  // the copy into the store is complete
  bool kept = false;
  {
    py::gil_scoped_acquire gil;
    auto volume = std::make_shared<Volume>(store_, std::move(access));
    callback_(py::cast(volume));
    kept = volume->kept();
    volume->release();
  }
  if (!kept) {
    store_->volumes().discard(id);
  }
}

void bindVolumes(py::module_& m) {
  py::class_<Volume, std::shared_ptr<Volume>>(
      m, "Volume",
      "A complete volume in the engine's VolumeStore, lent to a callback (or to a `with` block): "
      "its DeviceArrays share the store's memory and raise once it is handed back; its NumPy "
      "arrays (the CPU backend) are copies the script keeps.")
      .def_property_readonly("id", &Volume::id)
      .def_property_readonly("number", [](const Volume& v) { return v.info().number; })
      .def_property_readonly("shape",
                             [](const Volume& v) {
                               const process::VolumeShape& s = v.info().shape;
                               return py::make_tuple(s.ny, s.nz, s.nx);
                             })
      .def_property_readonly("elevation_m", [](const Volume& v) { return v.info().elevationM; })
      .def_property_readonly("sequence", [](const Volume& v) { return v.info().sequence; })
      .def_property_readonly(
          "volume", [](const Volume& v) { return v.array(0); }, "[ny][nz][nx] dB")
      .def_property_readonly(
          "mip_y", [](const Volume& v) { return v.array(1); }, "maximum along y: [nz][nx]")
      .def_property_readonly(
          "mip_z", [](const Volume& v) { return v.array(2); }, "maximum along z: [ny][nx]")
      .def_property_readonly(
          "mip_x", [](const Volume& v) { return v.array(3); }, "maximum along x: [ny][nz]")
      .def(
          "views",
          [](const Volume& v) {
            return py::dict("volume"_a = v.view(0), "mip_y"_a = v.view(1), "mip_z"_a = v.view(2),
                            "mip_x"_a = v.view(3));
          },
          "The four arrays as cineflow.DeviceArray on either backend (DLPack, and the CUDA or "
          "NumPy array interface): what a consumer such as CuPy or PyTorch takes without a copy.")
      .def("keep", &Volume::keep,
           "Keeps the volume in the store after the callback (save or discard it later).")
      .def("__enter__", [](const std::shared_ptr<Volume>& v) { return v; })
      .def("__exit__", [](Volume& v, const py::args&) { v.release(); });

  py::class_<Store, std::shared_ptr<Store>>(
      m, "Store", "The engine's VolumeStore: volumes kept on the device until saved or discarded.")
      .def("list",
           [](Store& s) {
             py::list out;
             for (const store::BufferedSummary& b : s.volumes().list()) {
               out.append(py::dict(
                   "id"_a = b.id, "number"_a = b.info.number,
                   "shape"_a = py::make_tuple(b.info.shape.ny, b.info.shape.nz, b.info.shape.nx),
                   "bytes"_a = b.bytes, "saved"_a = b.saved, "path"_a = b.savedPath));
             }
             return out;
           })
      .def(
          "volume",
          [](const std::shared_ptr<Store>& s, std::uint64_t id) {
            store::VolumeStore::Access access = s->volumes().access(id);
            if (!access) {
              throw py::key_error("no volume " + std::to_string(id) + " in the store");
            }
            {
              py::gil_scoped_release released;
              access.ready().synchronize();
            }
            return std::make_shared<Volume>(s, std::move(access));
          },
          "id"_a, "Volume `id`, lent until its `with` block ends (discard waits for that).")
      .def(
          "save",
          [](Store& s, std::uint64_t id, const std::string& path, const std::string& compression) {
            py::gil_scoped_release released;
            s.save(id, path, compression);
          },
          "id"_a, "path"_a, "compression"_a = "none",
          "Saves volume `id` as cineflow.volume/1 HDF5 (compression: none, gzip, lz4, "
          "bitshuffle-lz4) and waits; raises with the reason when it could not.")
      .def("discard", &Store::discard, "id"_a)
      .def_property_readonly("capacity", [](Store& s) { return s.volumes().capacity(); })
      .def_property_readonly("used", [](Store& s) { return s.volumes().used(); });
}

}  // namespace cineflow::python

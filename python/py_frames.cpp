#include "py_frames.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "py_modules.hpp"

namespace cineflow::python {
namespace py = pybind11;
using namespace pybind11::literals;

std::shared_ptr<ImageCopies> ImageCopies::make(std::size_t values, std::size_t spare) {
  return std::shared_ptr<ImageCopies>(new ImageCopies(values, spare));
}

py::array ImageCopies::copy(std::span<const float> pixels, const std::vector<py::ssize_t>& shape) {
  if (pixels.size() != values_) {
    throw std::logic_error("an image of " + std::to_string(pixels.size()) + " values, expected " +
                           std::to_string(values_));
  }
  // What the array's base owns: the buffer, and the way back to this pool (gone with the sink
  // when the engine restarts or is deleted: the buffer is then freed).
  struct Owner {
    std::unique_ptr<float[]> buffer;
    std::weak_ptr<ImageCopies> pool;
  };
  auto owner = std::make_unique<Owner>(Owner{take(), weak_from_this()});
  std::copy(pixels.begin(), pixels.end(), owner->buffer.get());
  float* data = owner->buffer.get();
  py::capsule base(owner.get(), [](void* pointer) {
    std::unique_ptr<Owner> owned(static_cast<Owner*>(pointer));
    if (const std::shared_ptr<ImageCopies> pool = owned->pool.lock()) {
      pool->giveBack(std::move(owned->buffer));
    }
  });
  owner.release();  // the capsule's now
  py::array image(py::dtype::of<float>(), shape, {}, data, base);
  makeReadOnly(image);
  return image;
}

std::unique_ptr<float[]> ImageCopies::take() {
  {
    std::scoped_lock lock(mutex_);
    if (!free_.empty()) {
      std::unique_ptr<float[]> buffer = std::move(free_.back());
      free_.pop_back();
      return buffer;
    }
  }
  return std::make_unique_for_overwrite<float[]>(values_);
}

void ImageCopies::giveBack(std::unique_ptr<float[]> buffer) {
  std::scoped_lock lock(mutex_);
  if (free_.size() < spare_) {
    free_.push_back(std::move(buffer));
  }
}

py::array Frame::image() {
  if (released_) {
    throw std::runtime_error(
        "the frame's buffer went back to the queue when the callback returned: keep the array "
        "frame.image gave inside the callback, not the frame");
  }
  if (!image_) {
    std::vector<py::ssize_t> shape = {geometry_.nz, geometry_.nx};
    if (geometry_.layers > 1) {
      shape.insert(shape.begin(), geometry_.layers);
    }
    image_ = copies_->copy(pixels_, shape);
  }
  return py::reinterpret_borrow<py::array>(image_);
}

void Frame::release() {
  released_ = true;
  pixels_ = {};
  image_ = py::object();  // the script's reference, if it kept one, keeps the copy
}

CallbackSink::CallbackSink(py::object callable, process::ImageGeometry geometry, int slots)
    : callback_(std::move(callable)),
      geometry_(geometry),
      copies_(ImageCopies::make(geometry.values(), static_cast<std::size_t>(slots) + 1)) {}

void CallbackSink::appendFrame(const acquire::FrameHeader& header, std::span<const float> image,
                               bool fresh) {
  py::gil_scoped_acquire gil;
  auto frame = std::make_shared<Frame>(header, geometry_, image, fresh, copies_);
  callback_(py::cast(frame));
  frame->release();
}

void bindFrames(py::module_& m) {
  py::class_<Frame, std::shared_ptr<Frame>>(m, "Frame", "One completed image, in a callback.")
      .def_property_readonly("image", &Frame::image,
                             "The image, read-only: a copy that is the script's to keep.")
      .def_property_readonly("sequence", [](const Frame& f) { return f.header().sequence; })
      .def_property_readonly("timestamp_ns", [](const Frame& f) { return f.header().timestampNs; })
      .def_property_readonly("source_index", [](const Frame& f) { return f.header().sourceIndex; })
      .def_property_readonly(
          "fresh", &Frame::fresh,
          "True when every layer was computed from this frame; False where the Doppler flow "
          "layers repeat an earlier estimate (block ensembles) or hold none yet. Average flow "
          "over the fresh frames only.")
      .def_property_readonly("slice_index",
                             [](const Frame& f) { return f.header().slice.sliceIndex; })
      .def_property_readonly("geometry", [](const Frame& f) {
        const process::ImageGeometry& g = f.geometry();
        return py::dict("nx"_a = g.nx, "nz"_a = g.nz, "layers"_a = g.layers, "x0"_a = g.x0,
                        "dx"_a = g.dx, "z0"_a = g.z0, "dz"_a = g.dz);
      });
}

}  // namespace cineflow::python

#pragma once
// Frames from an engine's callback queue to a script (cineflow.Frame), and the queue's sink that
// calls the script.
//
// The queue's slot an image arrives in is reused for a later frame as soon as the callable
// returns, so a script never sees the slot itself: `frame.image` is a read-only NumPy copy the
// script owns (made on the first read in the call, the same array on every read after), valid
// for as long as the script holds it, whatever the queue or the engine do later (deleted
// included). A frame that is never read costs no copy. The copies' buffers are recycled: an
// image the script drops gives its buffer to a later frame, so a callable that reads every image
// and keeps none allocates nothing once the first few are made.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "acquire/frame.hpp"
#include "process/image_geometry.hpp"
#include "py_common.hpp"
#include "store/bmode_recorder.hpp"

namespace cineflow::python {

// Read-only NumPy copies of images of one size, on recycled buffers. Thread-safe; copy() needs
// the GIL (it makes a Python object).
class ImageCopies : public std::enable_shared_from_this<ImageCopies> {
 public:
  // Images of `values` floats; at most `spare` dropped buffers wait for reuse (more are freed).
  static std::shared_ptr<ImageCopies> make(std::size_t values, std::size_t spare);

  // A read-only array of `shape` (whose product is `values`) holding a copy of `pixels`; its
  // base owns the buffer and hands it back here when NumPy frees the array.
  pybind11::array copy(std::span<const float> pixels, const std::vector<pybind11::ssize_t>& shape);

 private:
  ImageCopies(std::size_t values, std::size_t spare) : values_(values), spare_(spare) {}
  std::unique_ptr<float[]> take();
  void giveBack(std::unique_ptr<float[]> buffer);

  std::size_t values_;
  std::size_t spare_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<float[]>> free_;
};

// One completed image as the callable sees it. Its header stays readable after the call; `image`
// raises after it (an array the script took in the call is its own and stays valid).
class Frame {
 public:
  Frame(const acquire::FrameHeader& header, const process::ImageGeometry& geometry,
        std::span<const float> pixels, bool fresh, std::shared_ptr<ImageCopies> copies)
      : header_(header),
        geometry_(geometry),
        pixels_(pixels),
        copies_(std::move(copies)),
        fresh_(fresh) {}

  pybind11::array image();  // GIL held
  void release();           // the slot goes back to the queue (GIL held)
  const acquire::FrameHeader& header() const { return header_; }
  const process::ImageGeometry& geometry() const { return geometry_; }
  bool fresh() const { return fresh_; }

 private:
  acquire::FrameHeader header_;
  process::ImageGeometry geometry_;
  std::span<const float> pixels_;  // the queue's slot: read only before release()
  std::shared_ptr<ImageCopies> copies_;
  pybind11::object image_;  // the copy the script was handed (null until the first read)
  bool fresh_ = true;       // every layer computed from this frame (CompletedFrame::fresh)
  bool released_ = false;
};

// The queue's sink: calls the script's callable on the recorder's thread, under the GIL.
class CallbackSink final : public store::FrameSink {
 public:
  // `slots`: the queue's length, as many images as the script is likely to drop at a time.
  CallbackSink(pybind11::object callable, process::ImageGeometry geometry, int slots);

  void appendFrame(const acquire::FrameHeader& header, std::span<const float> image,
                   bool fresh) override;
  void finish() override {}
  const ScriptCallback& callback() const { return callback_; }

 private:
  ScriptCallback callback_;
  process::ImageGeometry geometry_;
  std::shared_ptr<ImageCopies> copies_;
};

}  // namespace cineflow::python

#pragma once
// The CUDA-OpenGL interop display path: on the CUDA backend the live image goes from the engine's
// cineloop (device memory) straight into the view's texture and never visits host memory.
//
// The renderer's texture is registered with CUDA once per texture allocation
// (cudaGraphicsGLRegisterImage, write-discard). Each upload maps it on the view's own display
// stream, copies the cineloop slot device-to-array (cudaMemcpy2DToArrayAsync), unmaps, and waits
// for that copy alone, so that the cineloop's seqlock can validate it (Cineloop::readImage). The
// engine's streams are never waited on: a slot is published only after the work writing it has
// completed, so the display never blocks the engine and the engine never blocks the GUI.
//
// Every method, the destructor included, must be called on the GUI thread with the view's GL
// context current, and the uploader must be destroyed before the renderer whose texture it holds.
// Like ImageRenderer, this header names no OpenGL or CUDA type.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "acquire/frame.hpp"
#include "compute/backend.hpp"
#include "pipeline/cineloop.hpp"
#include "process/image_geometry.hpp"

namespace cineflow::ui {

class ImageRenderer;

// The CUDA device the current GL context can share textures with when `backend` computes: the
// backend's device; -1 with `reason` saying why not (the CPU backend, a build without CUDA, an
// OpenGL context on a non-NVIDIA renderer such as Mesa's llvmpipe, another GPU, or the CUDA
// error). The 2-D views' uploader and the 3-D view's (device_volume_upload.hpp) both ask it.
int interopDevice(const compute::Backend& backend, std::string& reason);

class DeviceImageUpload {
 public:
  // An uploader when `backend` is the CUDA backend and the current GL
  // context can share textures with its device; otherwise null, with `reason` saying why (the CPU
  // backend, a build without CUDA, an OpenGL context on a non-NVIDIA renderer such as Mesa's
  // llvmpipe, or the CUDA error).
  static std::unique_ptr<DeviceImageUpload> create(const compute::Backend& backend,
                                                   std::string& reason);

  virtual ~DeviceImageUpload() = default;
  DeviceImageUpload(const DeviceImageUpload&) = delete;
  DeviceImageUpload& operator=(const DeviceImageUpload&) = delete;

  // Copies the cineloop's image `sequence` (the newest when nullopt) into the renderer's texture,
  // resizing the texture when the geometry changed. Returns false (texture contents then
  // unspecified) when no such complete entry exists any more; throws compute::cuda::CudaError
  // when CUDA fails, after which the caller should drop the uploader and copy through the host.
  virtual bool upload(ImageRenderer& renderer, const pipeline::Cineloop& cineloop,
                      std::optional<std::uint64_t> sequence, acquire::FrameHeader& header,
                      process::ImageGeometry& geometry) = 0;

  // Drops the texture's registration. Call it before anything else reallocates the renderer's
  // texture (ImageRenderer::upload with another geometry); the next upload registers again.
  virtual void detach() = 0;

  // "CUDA-OpenGL interop on <GL renderer>", for the status bar and the About dialog.
  virtual std::string description() const = 0;

 protected:
  DeviceImageUpload() = default;
};

}  // namespace cineflow::ui

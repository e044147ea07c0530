#pragma once
// RAII owners for CUDA-OpenGL interop (house style rule 2, docs/development.md). The GUI registers
// a GL texture once (cudaGraphicsGLRegisterImage, which needs GL headers and so lives in ui/) and
// hands the handle to GraphicsResource; each paint maps it on the display stream through a
// ScopedMapping, copies into the mapped array, and the mapping's destructor unmaps. Both must be
// used on the GUI thread with the GL context current.

#include <cuda_runtime.h>

namespace cineflow::compute::cuda {

class GraphicsResource {
 public:
  GraphicsResource() = default;
  explicit GraphicsResource(cudaGraphicsResource_t resource) noexcept : resource_(resource) {}
  ~GraphicsResource();
  GraphicsResource(GraphicsResource&& other) noexcept;
  GraphicsResource& operator=(GraphicsResource&& other) noexcept;
  GraphicsResource(const GraphicsResource&) = delete;
  GraphicsResource& operator=(const GraphicsResource&) = delete;

  cudaGraphicsResource_t get() const { return resource_; }
  explicit operator bool() const { return resource_ != nullptr; }

 private:
  void reset() noexcept;
  cudaGraphicsResource_t resource_ = nullptr;
};

// Maps a registered resource on `stream` for the lifetime of the object.
class ScopedMapping {
 public:
  ScopedMapping(GraphicsResource& resource, cudaStream_t stream);
  ~ScopedMapping();
  ScopedMapping(const ScopedMapping&) = delete;
  ScopedMapping& operator=(const ScopedMapping&) = delete;

  // The mapped texture's level-0 array (for cudaMemcpy2DToArrayAsync).
  cudaArray_t array() const;

 private:
  cudaGraphicsResource_t resource_;
  cudaStream_t stream_;
};

}  // namespace cineflow::compute::cuda

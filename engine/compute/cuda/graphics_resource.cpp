#include "compute/cuda/graphics_resource.hpp"

#include <iostream>
#include <utility>

#include "compute/cuda/cuda_check.hpp"

namespace cineflow::compute::cuda {

GraphicsResource::~GraphicsResource() {
  reset();
}

GraphicsResource::GraphicsResource(GraphicsResource&& other) noexcept
    : resource_(std::exchange(other.resource_, nullptr)) {}

GraphicsResource& GraphicsResource::operator=(GraphicsResource&& other) noexcept {
  if (this != &other) {
    reset();
    resource_ = std::exchange(other.resource_, nullptr);
  }
  return *this;
}

void GraphicsResource::reset() noexcept {
  if (resource_ != nullptr) {
    const cudaError_t status = cudaGraphicsUnregisterResource(resource_);
    if (status != cudaSuccess) {
      std::cerr << "cineflow: cudaGraphicsUnregisterResource: " << cudaGetErrorString(status)
                << '\n';
    }
    resource_ = nullptr;
  }
}

ScopedMapping::ScopedMapping(GraphicsResource& resource, cudaStream_t stream)
    : resource_(resource.get()), stream_(stream) {
  check(cudaGraphicsMapResources(1, &resource_, stream_), "cudaGraphicsMapResources");
}

ScopedMapping::~ScopedMapping() {
  const cudaError_t status = cudaGraphicsUnmapResources(1, &resource_, stream_);
  if (status != cudaSuccess) {
    std::cerr << "cineflow: cudaGraphicsUnmapResources: " << cudaGetErrorString(status) << '\n';
  }
}

cudaArray_t ScopedMapping::array() const {
  cudaArray_t array = nullptr;
  check(cudaGraphicsSubResourceGetMappedArray(&array, resource_, 0, 0),
        "cudaGraphicsSubResourceGetMappedArray");
  return array;
}

}  // namespace cineflow::compute::cuda
